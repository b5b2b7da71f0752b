import { field, isObject } from './checkKit.js'
import { isGreeting } from './replyText.js'
import type { FunctionTool, ReadRequest } from './responseInput.js'
import { FAIL_MARKER, REFUSE_MARKER } from './responseModel.js'
import { wantsVideoPrompt } from './videoPrompt.js'

/** What a response will be, decided from its request (first match wins, in this order). */
export type Intent =
  | { readonly kind: 'fail' }
  | { readonly kind: 'refuse' }
  | { readonly kind: 'useOutputs' }
  | { readonly kind: 'call'; readonly tools: readonly FunctionTool[] }
  | { readonly kind: 'structured'; readonly name: string; readonly schema: unknown }
  | { readonly kind: 'jsonObject' }
  | { readonly kind: 'greet' }
  | { readonly kind: 'videoPrompt' }
  | { readonly kind: 'answer' }

/**
 * Decides what to answer: `[fail]` fails; `[refuse]` refuses; function
 * outputs in the input are used in a text answer; function tools are
 * called when the input names them, or `tool_choice` is `required` or names
 * one (never with `none`; one call only when `parallel_tool_calls` is
 * false); a `json_schema` or `json_object` format gets JSON; then a
 * greeting, a video prompt, or a short answer.
 */
export function intentOf(read: ReadRequest, body: Record<string, unknown>): Intent {
  if (read.allText.includes(FAIL_MARKER)) return { kind: 'fail' }
  if (read.allText.includes(REFUSE_MARKER)) return { kind: 'refuse' }
  if (read.functionOutputs.length > 0) return { kind: 'useOutputs' }
  const tools = toolsToCall(read, field(body, 'tool_choice'), field(body, 'parallel_tool_calls'))
  if (tools.length > 0) return { kind: 'call', tools }
  const text = field(body, 'text')
  const format = isObject(text) && isObject(text.format) ? text.format : undefined
  if (format?.type === 'json_schema') return { kind: 'structured', name: String(format.name), schema: format.schema }
  if (format?.type === 'json_object') return { kind: 'jsonObject' }
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
