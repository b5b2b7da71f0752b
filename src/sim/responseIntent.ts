import { field, isObject } from './checkKit.js'
import type { Conversation } from './conversation.js'
import type { SimQuirks } from './options.js'
import { recallAnswer } from './recall.js'
import { isGreeting } from './replyText.js'
import type { FunctionTool, ReadRequest } from './responseInput.js'
import { BAD_ARGS_MARKER, FAIL_MARKER, PREAMBLE_MARKER, REFUSE_MARKER } from './responseModel.js'
import { readsAsError } from './toolAnswer.js'
import { wantsVideoPrompt } from './videoPrompt.js'

/** What a response will be, decided from its request (first match wins, in this order). */
export type Intent =
  | { readonly kind: 'fail' }
  | { readonly kind: 'refuse' }
  | {
      readonly kind: 'call'
      readonly tools: readonly FunctionTool[]
      /** Calling again a tool whose output was an error. */
      readonly again: boolean
      /** A short message comes before the calls. */
      readonly preamble: boolean
      /** The tools whose arguments break their schema. */
      readonly badArgs: readonly string[]
    }
  | { readonly kind: 'structuredOutputs'; readonly name: string; readonly schema: unknown }
  | { readonly kind: 'useOutputs' }
  | { readonly kind: 'structured'; readonly name: string; readonly schema: unknown }
  | { readonly kind: 'jsonObject' }
  /** An answer that refers back to the conversation (see `recallAnswer`). */
  | { readonly kind: 'recall'; readonly text: string }
  | { readonly kind: 'greet' }
  | { readonly kind: 'videoPrompt' }
  | { readonly kind: 'answer' }

/**
 * Decides what to answer: `[fail]` fails; `[refuse]` refuses. Function
 * outputs in the input: a tool whose output reads as an error on its first
 * call is called again; else the outputs are used, as JSON for a
 * `json_schema` format, else in a text answer. Function tools are called
 * when the input names them, or `tool_choice` is `required` or names one
 * (never with `none`; one call only when `parallel_tool_calls` is false).
 * Then a `json_schema` or `json_object` format gets JSON; then an answer
 * that refers back to the conversation, a greeting, a video prompt, or a
 * short answer. Calls follow the conversation's markers
 * (`[preamble]`, `[bad-args]`) and the `preamble` quirk.
 */
export function intentOf(read: ReadRequest, body: Record<string, unknown>, talk: Conversation, quirks: SimQuirks = {}): Intent {
  if (read.allText.includes(FAIL_MARKER)) return { kind: 'fail' }
  if (read.allText.includes(REFUSE_MARKER)) return { kind: 'refuse' }
  const choice = field(body, 'tool_choice')
  const parallel = field(body, 'parallel_tool_calls')
  const text = field(body, 'text')
  const format = isObject(text) && isObject(text.format) ? text.format : undefined
  const call = (tools: readonly FunctionTool[], again: boolean): Intent => ({
    kind: 'call',
    tools,
    again,
    preamble: quirks.preamble === true || talk.allText.includes(PREAMBLE_MARKER),
    badArgs: talk.allText.includes(BAD_ARGS_MARKER) ? tools.filter((tool) => !talk.callCounts.has(tool.name)).map((tool) => tool.name) : [],
  })
  if (read.functionOutputs.length > 0) {
    const again = toolsToCallAgain(read, talk, choice, parallel)
    if (again.length > 0) return call(again, true)
    if (format?.type === 'json_schema') return { kind: 'structuredOutputs', name: String(format.name), schema: format.schema }
    return { kind: 'useOutputs' }
  }
  const tools = toolsToCall(read, choice, parallel)
  if (tools.length > 0) return call(tools, false)
  if (format?.type === 'json_schema') return { kind: 'structured', name: String(format.name), schema: format.schema }
  if (format?.type === 'json_object') return { kind: 'jsonObject' }
  const recalled = recallAnswer(read.userText, talk.history)
  if (recalled !== undefined) return { kind: 'recall', text: recalled }
  if (isGreeting(read.userText)) return { kind: 'greet' }
  if (wantsVideoPrompt(read.instructions, read.userText)) return { kind: 'videoPrompt' }
  return { kind: 'answer' }
}

function toolsToCall(read: ReadRequest, choice: unknown, parallel: unknown): readonly FunctionTool[] {
  const tools = read.functionTools
  if (tools.length === 0 || choice === 'none') return []
  if (isObject(choice) && choice.type === 'function') return tools.filter((tool) => tool.name === choice.name).slice(0, 1)
  const named = tools.filter((tool) => read.userText.includes(tool.name))
  const chosen = named.length > 0 ? named : choice === 'required' ? tools.slice(0, 1) : []
  return parallel === false ? chosen.slice(0, 1) : chosen
}

/**
 * The offered tools whose output reads as an error and that the
 * conversation has called once only: a model corrects itself once, then
 * reports what went wrong rather than calling forever.
 */
function toolsToCallAgain(read: ReadRequest, talk: Conversation, choice: unknown, parallel: unknown): readonly FunctionTool[] {
  if (choice === 'none') return []
  const failed = new Set(read.functionOutputs.filter(({ output }) => readsAsError(output)).map(({ callId }) => talk.callNames.get(callId)))
  const again = read.functionTools.filter((tool) => failed.has(tool.name) && talk.callCounts.get(tool.name) === 1)
  return parallel === false ? again.slice(0, 1) : again
}
