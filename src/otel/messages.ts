import type { Response } from '../validation/response.js'

/** One part of a message, in the shape of the GenAI conventions' message schemas (`text`, `tool_call`, `uri`, …). */
export type MessagePart = Readonly<Record<string, unknown>> & { readonly type: string }

/** One message as `gen_ai.input.messages` and `gen_ai.output.messages` hold it. */
export interface Message {
  readonly role: string
  readonly parts: readonly MessagePart[]
  readonly finish_reason?: string
}

type Loose = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/**
 * The `input` of a response request as GenAI input messages: a string is
 * one user message; message items keep their role and text; function calls
 * and their outputs become `tool_call` and `tool_call_response` parts.
 * Parts rxgate does not map (an inline image, a file) keep only their type.
 */
export function inputMessages(input: unknown): Message[] {
  if (typeof input === 'string') return [{ role: 'user', parts: [{ type: 'text', content: input }] }]
  if (!Array.isArray(input)) return []
  const messages: Message[] = []
  for (const item of input) {
    if (!isObject(item)) continue
    if (item.type === undefined || item.type === 'message') messages.push({ role: String(item.role ?? 'user'), parts: contentParts(item.content) })
    else if (item.type === 'function_call') messages.push({ role: 'assistant', parts: [toolCall(item)] })
    else if (item.type === 'function_call_output') messages.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: item.call_id, response: item.output }] })
    else messages.push({ role: 'assistant', parts: [{ type: String(item.type) }] })
  }
  return messages
}

/** The output of a finished response as one assistant message: its text, refusals, reasoning summaries and function calls. */
export function outputMessages(response: Pick<Response, 'output'>, finishReason: string | undefined): Message[] {
  const parts: MessagePart[] = []
  for (const item of (response.output ?? []) as readonly Loose[]) {
    if (item.type === 'message') parts.push(...contentParts(item.content))
    else if (item.type === 'function_call') parts.push(toolCall(item))
    else if (item.type === 'reasoning') {
      const summary = Array.isArray(item.summary) ? item.summary.map((s: unknown) => (isObject(s) ? String(s.text ?? '') : '')).join('\n') : ''
      if (summary) parts.push({ type: 'reasoning', content: summary })
    } else parts.push({ type: String(item.type) })
  }
  return [{ role: 'assistant', parts, ...(finishReason ? { finish_reason: finishReason } : {}) }]
}

/** `instructions` as `gen_ai.system_instructions`. */
export function systemInstructions(instructions: unknown): MessagePart[] | undefined {
  return typeof instructions === 'string' && instructions ? [{ type: 'text', content: instructions }] : undefined
}

/**
 * A media task's body as one user message: its `prompt` as text, and each
 * `…_url` field (`image_url`, `audio_url`, …) as a `uri` part of the
 * modality its name says (see {@link uriPart}).
 */
export function taskInput(body: object): Message[] {
  const parts: MessagePart[] = []
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') continue
    if (key === 'prompt') parts.unshift({ type: 'text', content: value })
    else if (key.endsWith('_url')) parts.push(uriPart(key.slice(0, -4), value))
  }
  return [{ role: 'user', parts }]
}

/** A completed task's result URLs as one assistant message of `uri` parts (see {@link uriPart}). */
export function taskOutput(kind: string, urls: readonly string[]): Message[] {
  return [{ role: 'assistant', parts: urls.map((url) => uriPart(kind, url)), finish_reason: 'stop' }]
}

/**
 * A URL as a `uri` part: scheme, host, port and path only. The query goes
 * (a signed URL's `sig=`, `Expires=`, `X-Amz-Signature=` is what lets anyone
 * fetch the file, a credential rather than content), and so do the fragment,
 * a user and a password. A URL that is not http(s) (a `data:` URL is the
 * file itself, often megabytes) keeps only its modality.
 *
 * @example
 * ```ts
 * uriPart('video', 'https://cdn.test/v.mp4?Expires=1700000000&sig=abc')
 * // { type: 'uri', modality: 'video', uri: 'https://cdn.test/v.mp4' }
 * ```
 */
export function uriPart(modality: string, url: string): MessagePart {
  if (/^https?:/i.test(url)) {
    try {
      const u = new URL(url)
      return { type: 'uri', modality, uri: u.origin + u.pathname }
    } catch {
      // Not a URL after all: only its modality is told.
    }
  }
  return { type: 'uri', modality }
}

function contentParts(content: unknown): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', content }]
  if (!Array.isArray(content)) return []
  return content.filter(isObject).map((part): MessagePart => {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
      case 'text':
        return { type: 'text', content: part.text }
      case 'refusal':
        return { type: 'text', content: part.refusal }
      case 'input_image':
        // A data: URL is the image itself, often megabytes: not copied into a span.
        return typeof part.image_url === 'string' && /^https?:/i.test(part.image_url) ? uriPart('image', part.image_url) : { type: 'input_image' }
      default:
        return { type: String(part.type) }
    }
  })
}

function toolCall(item: Loose): MessagePart {
  let args: unknown = item.arguments
  try {
    if (typeof args === 'string') args = JSON.parse(args)
  } catch {
    // Arguments that are not JSON (a model's slip) are kept as written.
  }
  return { type: 'tool_call', id: item.call_id, name: item.name, arguments: args }
}
