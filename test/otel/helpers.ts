import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { context, metrics, propagation, ROOT_CONTEXT, trace, type Context, type ContextManager } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { onTestFinished } from 'vitest'
import { startSimulator, type SimulatorOptions } from '../../src/sim/index.js'

/** A key long enough to be masked wherever it shows. */
export const OTEL_KEY = 'sk-otel-0123456789abcdefghij'

/** A reader whose metrics are collected when the test asks. */
class TestReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve()
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
}

/**
 * A tracer and a meter recording in memory, the W3C propagator as the global
 * one; every global is reset when the test ends.
 */
export function recorder() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const reader = new TestReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  onTestFinished(async () => {
    trace.disable()
    propagation.disable()
    metrics.disable()
    context.disable()
    await provider.shutdown()
    await meterProvider.shutdown()
  })
  return {
    provider,
    meterProvider,
    tracer: provider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    collect: async (): Promise<ResourceMetrics> => (await reader.collect()).resourceMetrics,
  }
}

/** Sets a synchronous context manager: `context.with` then works for what runs inside its callback. */
export function syncContext(): void {
  let current: Context = ROOT_CONTEXT
  const manager: ContextManager = {
    active: () => current,
    with(ctx, fn, thisArg, ...args) {
      const before = current
      current = ctx
      try {
        return fn.call(thisArg, ...args)
      } finally {
        current = before
      }
    },
    bind: (_ctx, target) => target,
    enable() {
      return this
    },
    disable() {
      current = ROOT_CONTEXT
      return this
    },
  }
  context.setGlobalContextManager(manager)
}

/** The simulator with a long key and quick tasks and background responses, closed when the test ends. */
export async function quickSim(options: SimulatorOptions = {}) {
  const sim = await startSimulator({ apiKey: OTEL_KEY, streamDelayMs: 1, timeScale: { pendingMs: 150, processingMs: 150 }, ...options })
  onTestFinished(() => sim.close())
  return sim
}

/** Poll timings of a few ms, for clients of {@link quickSim}. */
export const QUICK_POLLS = { responsePoll: { initialDelayMs: 20, factor: 1, maxDelayMs: 20, jitter: 0 }, taskPoll: { initialDelayMs: 20, factor: 1, maxDelayMs: 20, jitter: 0 } }

/** What the gateway received of one request. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
}

/** A proxy on 127.0.0.1 in front of `target` that records the headers of every request it forwards; closed when the test ends. */
export async function recordingProxy(target: string) {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: { ...req.headers } })
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (reply) => {
      res.writeHead(reply.statusCode!, reply.headers)
      reply.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    res.on('close', () => upstream.destroy())
    req.pipe(upstream)
  })
  return { url: await listen(server), seen }
}

/** A server on 127.0.0.1 answering each request with the next of `replies` (the last one repeats), recording what it received. */
export async function scriptedServer(replies: readonly { status: number; body: unknown }[]) {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: { ...req.headers } })
    const reply = replies[Math.min(seen.length, replies.length) - 1]!
    req.resume()
    res.writeHead(reply.status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(reply.body))
  })
  return { url: await listen(server), seen }
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The W3C `traceparent` naming `span`. */
export function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId, traceFlags } = span.spanContext()
  return `00-${traceId}-${spanId}-0${traceFlags}`
}

/** The spans whose parent is `parent`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)
}

/** The one span named `name`. */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name)
  if (found.length !== 1) throw new Error(`${found.length} spans named ${name} among ${spans.map((s) => s.name).join(', ')}`)
  return found[0]!
}

/** What a span holds that an exporter sends, as JSON: name, attributes, events, status. */
export function exported(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })))
}

/** A Response the scripted server can answer with. */
export function cannedResponse(text = 'Hello there') {
  return {
    id: 'resp_canned1',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'gpt-4.1-mini-2025',
    status: 'completed',
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
    usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
  }
}
