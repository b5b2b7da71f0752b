import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api'
import type { GatewayError } from '../errors/GatewayError.js'
import type { TaskEvent } from '../operators/pollTask.js'
import type { OperationInfo, OperationOutcome, OperationTrace } from '../telemetry.js'
import type { AttemptSpec, AttemptTrace } from '../transport/types.js'
import type { Response } from '../validation/response.js'
import { errorType, startAttempt, targetOf } from './attemptSpan.js'
import { finishReasons } from './finishReasons.js'
import type { Instruments } from './instruments.js'
import { inputMessages, outputMessages, systemInstructions, taskInput, taskOutput } from './messages.js'
import { requestAttributes } from './requestAttributes.js'

/** What every operation of one `openTelemetry()` shares, read at the call's start. */
export interface OperationSettings {
  readonly tracer: Tracer
  readonly instruments: Instruments
  readonly captureContent: boolean
  readonly providerName: string | undefined
  /** The propagator's headers sent with each request (lower case); any other it writes stays home. */
  readonly sent: readonly string[]
}

/**
 * The span of one call, `{gen_ai.operation.name} {gen_ai.request.model}`,
 * child of the context active at its subscription, and the parent of each
 * try of its requests. It ends with the call: status unset when it
 * completed, `ERROR` with `error.type` when it failed, unset with
 * `rxgate.cancelled: true` when its subscriber left. Its duration and token
 * counts go to the metrics then, a cancelled call's duration excepted.
 */
export class OperationSpan implements OperationTrace {
  private readonly span: Span
  private readonly context: Context
  private readonly started = performance.now()
  /** The attributes metrics are recorded with. */
  private readonly common: Attributes
  private responseModel: string | undefined
  private usage: { readonly input: number; readonly output: number } | undefined

  constructor(
    private readonly info: OperationInfo,
    private readonly settings: OperationSettings,
  ) {
    const parent = context.active()
    const { operation, redact } = info
    const model = info.model === undefined ? undefined : redact(info.model)
    const target = targetOf(info.baseUrl, redact)
    const common: Attributes = { 'gen_ai.operation.name': operation, 'gen_ai.provider.name': providerOf(info, settings.providerName) }
    if (model !== undefined) common['gen_ai.request.model'] = model
    if (target.address !== undefined) {
      common['server.address'] = target.address
      common['server.port'] = target.port
    }
    this.common = common
    const attributes = { ...common, ...requestAttributes(info) }
    this.span = settings.tracer.startSpan(model ? `${operation} ${model}` : operation, { kind: SpanKind.CLIENT, attributes }, parent)
    this.context = trace.setSpan(parent, this.span)
    if (settings.captureContent && info.request) this.input(info.request)
  }

  attempt(spec: AttemptSpec, url: string): AttemptTrace {
    return startAttempt(this.settings.tracer, this.context, spec, url, this.info.redact, this.settings.sent)
  }

  response(response: Response): void {
    const { span, info } = this
    if (typeof response.id === 'string') span.setAttribute('gen_ai.response.id', info.redact(response.id))
    if (typeof response.model === 'string') span.setAttribute('gen_ai.response.model', (this.responseModel = info.redact(response.model)))
    const reasons = finishReasons(response)
    if (!reasons) return
    span.setAttribute('gen_ai.response.finish_reasons', reasons)
    const u = response.usage
    if (u) {
      const input = u.input_tokens ?? u.prompt_tokens ?? 0
      const output = u.output_tokens ?? u.completion_tokens ?? 0
      this.usage = { input, output }
      span.setAttributes({ 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output })
      const cached = u.input_tokens_details?.cached_tokens ?? u.prompt_tokens_details?.cached_tokens
      const reasoning = u.output_tokens_details?.reasoning_tokens ?? u.completion_tokens_details?.reasoning_tokens
      if (cached != null) span.setAttribute('gen_ai.usage.cache_read.input_tokens', cached)
      if (reasoning != null) span.setAttribute('gen_ai.usage.reasoning.output_tokens', reasoning)
    }
    if (this.settings.captureContent) this.json('gen_ai.output.messages', outputMessages(response, reasons[0]))
  }

  taskStatus(event: TaskEvent): void {
    const { span, info } = this
    span.addEvent('rxgate.task.status', { 'rxgate.task.status': event.type })
    if (event.type === 'created') {
      const id = info.redact(event.taskId)
      span.setAttributes({ 'gen_ai.response.id': id, 'rxgate.task.id': id })
    } else if (event.type === 'completed') {
      span.setAttribute('gen_ai.response.finish_reasons', ['stop'])
      if (this.settings.captureContent) this.json('gen_ai.output.messages', taskOutput(info.endpoint?.kind ?? 'video', event.urls))
    }
  }

  end(outcome: OperationOutcome, error?: GatewayError): void {
    const { span } = this
    let type: string | undefined
    if (outcome === 'cancelled') span.setAttribute('rxgate.cancelled', true)
    else if (outcome === 'error') {
      // A failed response or task still says what it was.
      const failed = error?.name === 'ResponseFailedError' ? (error as { response?: unknown }).response : undefined
      if (typeof failed === 'object' && failed !== null) this.response(failed as Response)
      if (error?.name === 'TaskFailedError') {
        span.addEvent('rxgate.task.status', { 'rxgate.task.status': 'failed' })
        span.setAttribute('gen_ai.response.finish_reasons', ['error'])
      }
      type = errorType(error)
      span.setAttribute('error.type', type)
      span.setStatus({ code: SpanStatusCode.ERROR, message: this.info.redact(error?.message ?? '') })
    }
    this.measure(outcome, type)
    span.end()
  }

  /** The call's duration and token counts, for the operations that make something (`chat`, `generate_content`). */
  private measure(outcome: OperationOutcome, type: string | undefined): void {
    const { operation } = this.info
    if (operation !== 'chat' && operation !== 'generate_content') return
    const attributes: Attributes = { ...this.common }
    if (this.responseModel !== undefined) attributes['gen_ai.response.model'] = this.responseModel
    const { tokens, duration } = this.settings.instruments
    if (this.usage) {
      tokens.record(this.usage.input, { ...attributes, 'gen_ai.token.type': 'input' })
      tokens.record(this.usage.output, { ...attributes, 'gen_ai.token.type': 'output' })
    }
    if (outcome === 'cancelled') return
    if (type !== undefined) attributes['error.type'] = type
    duration.record((performance.now() - this.started) / 1000, attributes)
  }

  private input(request: object): void {
    if (this.info.operation === 'generate_content') return this.json('gen_ai.input.messages', taskInput(request))
    const { input, instructions } = request as { input?: unknown; instructions?: unknown }
    const system = systemInstructions(instructions)
    if (system) this.json('gen_ai.system_instructions', system)
    this.json('gen_ai.input.messages', inputMessages(input))
  }

  /** A structured attribute as a JSON string (span attributes hold no objects), masked of the key. */
  private json(name: string, value: unknown): void {
    this.span.setAttribute(name, this.info.redact(JSON.stringify(value)))
  }
}

/** `gen_ai.provider.name`: the option, else the vendor the path names (`/vendors/{vendor}/…`), else the endpoint's vendor, else `openai` (the Responses API's). */
function providerOf(info: OperationInfo, option: string | undefined): string {
  return option ?? /^\/vendors\/([^/]+)\//.exec(info.path)?.[1] ?? info.endpoint?.name.split('/')[0] ?? 'openai'
}
