/* eslint-disable @typescript-eslint/no-unused-vars -- each assignment below is a type check, never read */
// Compiled by `tsc --noEmit` (tsconfig includes test/), never run: each
// event type narrows by `event.type`, and its fields read with their types.
// A field that is missing or mistyped breaks the build.
import type { ToolCall } from '../../src/operators/toolCalls.js'
import type { Annotation, ContentPart, Logprob } from '../../src/validation/contentParts.js'
import type { OutputItem } from '../../src/validation/outputItems.js'
import type { Response } from '../../src/validation/response.js'
import type { KnownStreamEvent, ResponseStreamEvent, StreamEvent } from '../../src/validation/streamEvents.js'

type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const is = <A, B>(_: Is<A, B>) => {}
let text: string
let n: number
let maybeN: number | undefined

export function readEvent(event: ResponseStreamEvent): void {
  maybeN = event.sequence_number
  switch (event.type) {
    case 'response.created':
    case 'response.queued':
    case 'response.in_progress':
    case 'response.completed':
    case 'response.failed':
    case 'response.incomplete':
      return readResponse(event.response)
    case 'response.output_item.added':
    case 'response.output_item.done':
      n = event.output_index
      return readItem(event.item)
    case 'response.content_part.added':
    case 'response.content_part.done':
      ;[text, n, n] = [event.item_id, event.output_index, event.content_index]
      return readPart(event.part)
    case 'response.output_text.delta': {
      ;[text, n, n, text] = [event.item_id, event.output_index, event.content_index, event.delta]
      const logprobs: Logprob[] | undefined = event.logprobs
      const obfuscation: string | undefined = event.obfuscation
      return void [logprobs?.[0]?.token, logprobs?.[0]?.top_logprobs?.[0]?.logprob, obfuscation]
    }
    case 'response.output_text.done':
      return void ([text, n, n, text] = [event.item_id, event.output_index, event.content_index, event.text])
    case 'response.output_text.annotation.added':
      ;[n, n] = [event.annotation_index, event.content_index]
      return readAnnotation(event.annotation)
    case 'response.refusal.delta':
      return void ([text, n, n, text] = [event.item_id, event.output_index, event.content_index, event.delta])
    case 'response.refusal.done':
      return void ([text, n, text] = [event.item_id, event.content_index, event.refusal])
    case 'response.reasoning_summary_part.added':
    case 'response.reasoning_summary_part.done':
      return void ([text, n, n, text] = [event.item_id, event.output_index, event.summary_index, event.part.text])
    case 'response.reasoning_summary_text.delta':
      return void ([text, n, text] = [event.item_id, event.summary_index, event.delta])
    case 'response.reasoning_summary_text.done':
      return void ([text, n, text] = [event.item_id, event.summary_index, event.text])
    case 'response.reasoning_text.delta':
      return void ([text, n, text] = [event.item_id, event.content_index, event.delta])
    case 'response.reasoning_text.done':
      return void ([text, n, text] = [event.item_id, event.content_index, event.text])
    case 'response.function_call_arguments.delta':
      return void ([text, n, text] = [event.item_id, event.output_index, event.delta])
    case 'response.function_call_arguments.done': {
      ;[text, n, text] = [event.arguments, event.output_index, event.item_id]
      const name: string | undefined = event.name
      return void name
    }
    case 'response.custom_tool_call_input.delta':
      return void ([text, text] = [event.item_id, event.delta])
    case 'response.custom_tool_call_input.done':
      return void ([text, text] = [event.item_id, event.input])
    case 'response.mcp_call_arguments.delta':
      return void ([text, text] = [event.item_id, event.delta])
    case 'response.mcp_call_arguments.done':
      return void ([text, text] = [event.item_id, event.arguments])
    case 'response.mcp_call.in_progress':
    case 'response.mcp_call.completed':
    case 'response.mcp_call.failed':
    case 'response.mcp_list_tools.in_progress':
    case 'response.mcp_list_tools.completed':
    case 'response.mcp_list_tools.failed':
    case 'response.file_search_call.in_progress':
    case 'response.file_search_call.searching':
    case 'response.file_search_call.completed':
    case 'response.web_search_call.in_progress':
    case 'response.web_search_call.searching':
    case 'response.web_search_call.completed':
    case 'response.code_interpreter_call.in_progress':
    case 'response.code_interpreter_call.interpreting':
    case 'response.code_interpreter_call.completed':
    case 'response.image_generation_call.in_progress':
    case 'response.image_generation_call.generating':
    case 'response.image_generation_call.completed':
      return void ([text, n] = [event.item_id, event.output_index])
    case 'response.code_interpreter_call_code.delta':
      return void ([text, text] = [event.item_id, event.delta])
    case 'response.code_interpreter_call_code.done':
      return void ([text, text] = [event.item_id, event.code])
    case 'response.image_generation_call.partial_image':
      return void ([text, n, text] = [event.item_id, event.partial_image_index, event.partial_image_b64])
    case 'response.audio.delta':
    case 'response.audio.transcript.delta':
      return void (text = event.delta)
    case 'response.audio.done':
    case 'response.audio.transcript.done':
      return
    case 'error': {
      // Both shapes seen in real traffic: flat, and nested under `error`.
      const detail = event.error ?? event
      const code: string | number | null | undefined = detail.code
      const message: string | null | undefined = detail.message
      return void [code, message]
    }
    default: {
      // Only the events this version does not model are left, their type opaque.
      const unknown = String(event.type)
      // @ts-expect-error an unknown type is not a string literal to compare with
      const asString: string = event.type
      return void [unknown, asString]
    }
  }
}

function readResponse(response: Response): void {
  text = response.id
  const reason: string | null | undefined = response.incomplete_details?.reason
  for (const item of response.output ?? []) readItem(item)
  void reason
}

function readItem(item: OutputItem): void {
  switch (item.type) {
    case 'message':
      return void [item.role, item.phase, ...item.content.map(readPart)]
    case 'reasoning':
      return void [item.summary?.map((s) => s.text), item.content?.map((c) => c.text), item.encrypted_content]
    case 'function_call': {
      const callId: string | undefined = item.call_id
      return void ([text, text] = [item.name, item.arguments]), void callId
    }
    case 'custom_tool_call':
      return void ([text, text, text] = [item.call_id, item.name, item.input])
    case 'web_search_call':
      return void [item.action?.query, item.action?.sources?.map((s) => s.url)]
    case 'file_search_call':
      return void [item.queries, item.results?.map((r) => [r.filename, r.score, r.text])]
    case 'code_interpreter_call':
      return void [item.code, item.container_id, item.outputs?.map((o) => o.logs ?? o.url)]
    case 'image_generation_call':
      return void [item.result, item.revised_prompt, item.size]
    case 'mcp_call':
      return void ([text, text, text] = [item.server_label, item.name, item.arguments]), void item.output
    case 'mcp_list_tools':
      return void item.tools.map((t) => [t.name, t.description, t.input_schema])
    case 'mcp_approval_request':
      return void ([text, text, text] = [item.server_label, item.name, item.arguments])
    case 'computer_call':
    case 'local_shell_call':
      return void ([text, text] = [item.id, item.call_id])
    default:
      return void String(item.type)
  }
}

function readPart(part: ContentPart): void {
  if (part.type === 'output_text') return void [part.text, part.annotations?.map(readAnnotation), part.logprobs?.map((l) => l.logprob)]
  if (part.type === 'refusal') return void (text = part.refusal)
  if (part.type === 'reasoning_text') return void (text = part.text)
}

function readAnnotation(annotation: Annotation): void {
  if (annotation.type === 'url_citation') return void ([text, n, n] = [annotation.url, annotation.start_index, annotation.end_index])
  if (annotation.type === 'file_citation') return void ([text, maybeN] = [annotation.file_id, annotation.index])
  if (annotation.type === 'container_file_citation') return void ([text, text] = [annotation.container_id, annotation.file_id])
  if (annotation.type === 'file_path') return void (text = annotation.file_id)
}

// The issue's own check: `function_call_arguments.done` has arguments, item_id and output_index.
type ArgumentsDone = StreamEvent<'response.function_call_arguments.done'>
is<ArgumentsDone['arguments'], string>(true)
is<ArgumentsDone['item_id'], string>(true)
is<ArgumentsDone['output_index'], number>(true)
is<Extract<KnownStreamEvent, { type: 'response.output_text.delta' }>['delta'], string>(true)
is<ToolCall['callId'], string>(true)
