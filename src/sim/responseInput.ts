import { field, isObject } from './checkKit.js'
import { BAD_ARGS_MARKER, PREAMBLE_MARKER } from './responseModel.js'

/** A function tool offered in `tools`. */
export interface FunctionTool {
  readonly name: string
  /** Its JSON schema (`{ type: 'object', properties: {} }` when none is given). */
  readonly parameters: unknown
}

/** A `function_call_output` item of the input. */
export interface FunctionOutput {
  readonly callId: string
  readonly output: string
}

/** A message of the conversation: who said it, and its text. */
export interface Said {
  readonly role: string
  readonly text: string
}

/** What the simulator reads of a checked response request to write its answer. */
export interface ReadRequest {
  readonly model: string
  /** `instructions`, or `''`. */
  readonly instructions: string
  /** The text of the last user message (the whole input when it is a string), without the `[preamble]` and `[bad-args]` markers. */
  readonly userText: string
  /** Every text of instructions and input, function outputs included: what the input tokens are counted on. */
  readonly allText: string
  /** The messages of the input, in order (a string input is one user message); user texts without the markers. */
  readonly messages: readonly Said[]
  readonly functionTools: readonly FunctionTool[]
  readonly functionOutputs: readonly FunctionOutput[]
  /** `function_call` items given back in the input (manual chaining): call id → function name. */
  readonly inputCalls: ReadonlyMap<string, string>
}

/** Reads a request that has passed the checks. */
export function readRequest(body: Record<string, unknown>): ReadRequest {
  const input = field(body, 'input')
  const items = Array.isArray(input) ? input.filter(isObject) : []
  const instructions = typeof field(body, 'instructions') === 'string' ? (field(body, 'instructions') as string) : ''
  const users = typeof input === 'string' ? [input] : items.filter((item) => item.role === 'user').map((item) => textOf(item.content))
  const tools = Array.isArray(field(body, 'tools')) ? (field(body, 'tools') as unknown[]).filter(isObject) : []
  return {
    model: field(body, 'model') as string,
    instructions,
    userText: withoutMarkers(users.at(-1) ?? ''),
    allText: [instructions, typeof input === 'string' ? input : items.map(itemText).join('\n')].filter(Boolean).join('\n'),
    messages: (typeof input === 'string' ? [{ role: 'user', content: input }] : items.filter((item) => typeof item.role === 'string')).map((item) => {
      const text = textOf(item.content)
      return { role: item.role as string, text: item.role === 'user' ? withoutMarkers(text) : text }
    }),
    functionTools: tools
      .filter((tool) => tool.type === 'function' && typeof tool.name === 'string')
      .map((tool) => ({ name: tool.name as string, parameters: tool.parameters ?? { type: 'object', properties: {} } })),
    functionOutputs: items
      .filter((item) => item.type === 'function_call_output')
      .map((item) => ({ callId: item.call_id as string, output: typeof item.output === 'string' ? item.output : textOf(item.output) })),
    inputCalls: new Map(items.filter((item) => item.type === 'function_call').map((item) => [item.call_id as string, item.name as string])),
  }
}

/** The text without the markers that change how the model acts rather than what it is asked. */
function withoutMarkers(text: string): string {
  const markers = [PREAMBLE_MARKER, BAD_ARGS_MARKER].filter((marker) => text.includes(marker))
  if (markers.length === 0) return text
  return markers.reduce((rest, marker) => rest.replaceAll(marker, ' '), text).replace(/[ \t]{2,}/g, ' ').trim()
}

/** The text of message content: a string, or the `text` of its parts joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter(isObject)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n')
}

function itemText(item: Record<string, unknown>): string {
  if (item.type === 'function_call_output') return typeof item.output === 'string' ? item.output : textOf(item.output)
  if (item.type === 'function_call') return typeof item.arguments === 'string' ? item.arguments : ''
  return textOf(item.content)
}
