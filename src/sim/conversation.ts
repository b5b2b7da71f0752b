import { apiError, invalid } from './apiError.js'
import { field } from './checkKit.js'
import { outputTextOf } from './responseItems.js'
import { readRequest, type ReadRequest, type Said } from './responseInput.js'
import type { StoredResponse } from './responseModel.js'

/**
 * What a request continues: the calls made so far and the text of the
 * earlier turns, read from its input and along its `previous_response_id`
 * chain (as a real model sees the whole conversation, not the last input alone).
 */
export interface Conversation {
  /** Call id → function name, for the `function_call` items of the input and of every response continued. */
  readonly callNames: ReadonlyMap<string, string>
  /** How many calls of each function those items hold. */
  readonly callCounts: ReadonlyMap<string, number>
  /** The instructions and input of this request and of every one it continues: where the conversation's markers are read. */
  readonly allText: string
  /** The last user text: this request's, else that of the latest request it continues. */
  readonly userText: string
  /**
   * Every message of the conversation, oldest first: those of each request
   * continued, each followed by the text its response gave (as `assistant`),
   * then this request's own. What an answer may refer back to.
   */
  readonly history: readonly Said[]
}

/**
 * Reads the conversation of a checked request. An unknown
 * `previous_response_id` is a 400, and so is a function output for a call
 * that exists neither in the input nor in the responses continued, as at OpenAI.
 *
 * @example
 * ```ts
 * const talk = conversationOf(read, 'resp_1', env.responses)
 * talk.callCounts.get('get_weather') // 1: the first response called it once
 * ```
 */
export function conversationOf(read: ReadRequest, previousId: unknown, responses: ReadonlyMap<string, StoredResponse>): Conversation {
  if (typeof previousId === 'string' && !responses.has(previousId)) {
    throw apiError(400, `Previous response with id '${previousId}' not found.`, 'previous_response_not_found', { param: 'previous_response_id' })
  }
  const callNames = new Map(read.inputCalls)
  const called = [...read.inputCalls.values()]
  const texts = [read.allText]
  const history = [...read.messages]
  let userText = read.userText
  const seen = new Set<string>()
  for (let id = previousId; typeof id === 'string' && !seen.has(id); ) {
    seen.add(id)
    const previous = responses.get(id)
    if (!previous) break
    for (const item of previous.items) {
      if (item.kind !== 'function_call') continue
      callNames.set(item.callId, item.name)
      called.push(item.name)
    }
    const earlier = readRequest(previous.request)
    texts.unshift(earlier.allText)
    const answer = outputTextOf(previous)
    history.unshift(...earlier.messages, ...(answer ? [{ role: 'assistant', text: answer }] : []))
    userText ||= earlier.userText
    id = field(previous.request, 'previous_response_id')
  }
  const orphan = read.functionOutputs.find((output) => !callNames.has(output.callId))
  if (orphan) throw invalid('input', `input: no function call found with call_id '${orphan.callId}' (give previous_response_id, or the function_call item)`)
  const callCounts = new Map<string, number>()
  for (const name of called) callCounts.set(name, (callCounts.get(name) ?? 0) + 1)
  return { callNames, callCounts, allText: texts.filter(Boolean).join('\n'), userText, history }
}
