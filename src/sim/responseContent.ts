import { randomBytes } from 'node:crypto'
import type { Intent } from './responseIntent.js'
import type { ReadRequest } from './responseInput.js'
import type { PlannedItem } from './responseModel.js'
import { chunksOf, piecesOf, snippetOf } from './pieces.js'
import { answerTo, GREETING_REPLY, listed } from './replyText.js'
import { instanceOf } from './schemaInstance.js'
import { answerFromOutputs, argumentTextOf } from './toolAnswer.js'
import { topicOf, videoPromptAbout } from './videoPrompt.js'

/** A random id with a prefix, like OpenAI's (`msg_…`, `fc_…`, `call_…`). */
export const idOf = (prefix: string, bytes = 24): string => `${prefix}_${randomBytes(bytes).toString('hex')}`

/** The refusal a `[refuse]` request gets. */
export const REFUSAL = "I'm sorry, but I can't help with that request."

/**
 * The output items of an intent, before any `max_output_tokens` cut: one
 * message (text or refusal), or one function call per tool to call.
 * `callNames` maps the call ids of function outputs to function names.
 */
export function contentOf(intent: Intent, read: ReadRequest, callNames: ReadonlyMap<string, string>): PlannedItem[] {
  const message = (text: string, part: 'output_text' | 'refusal' = 'output_text', split = piecesOf): PlannedItem[] => [
    { kind: 'message', id: idOf('msg'), part, pieces: split(text) },
  ]
  switch (intent.kind) {
    case 'fail':
      return []
    case 'refuse':
      return message(REFUSAL, 'refusal')
    case 'useOutputs':
      return message(answerFromOutputs(read.functionOutputs.map(({ callId, output }) => ({ name: callNames.get(callId) ?? callId, output }))))
    case 'call': {
      const text = argumentTextOf(read.userText, intent.tools.map((tool) => tool.name))
      return intent.tools.map((tool) => ({
        kind: 'function_call',
        id: idOf('fc'),
        callId: idOf('call', 12),
        name: tool.name,
        pieces: chunksOf(JSON.stringify(instanceOf(tool.parameters, text) ?? {})),
      }))
    }
    case 'structured':
      return message(JSON.stringify(instanceOf(intent.schema, topicOf(read.userText))), 'output_text', chunksOf)
    case 'jsonObject':
      return message(JSON.stringify({ answer: answerTo(read.userText) }), 'output_text', chunksOf)
    case 'greet':
      return message(GREETING_REPLY)
    case 'videoPrompt':
      return message(videoPromptAbout(topicOf(read.userText)))
    case 'answer':
      return message(answerTo(read.userText))
  }
}

/** The reasoning summary of a reasoning model: two parts, what was asked and how it will be answered. */
export function reasoningOf(intent: Intent, read: ReadRequest): PlannedItem {
  const goals: Record<Intent['kind'], string> = {
    fail: 'report a failure',
    refuse: 'decline politely',
    useOutputs: 'use the tool results in a short answer',
    call: `call ${intent.kind === 'call' ? listed(intent.tools.map((tool) => tool.name)) : 'a tool'} with the right arguments`,
    structured: `fill in the ${intent.kind === 'structured' ? intent.name : ''} JSON schema`,
    jsonObject: 'answer with a JSON object',
    greet: 'greet them back',
    videoPrompt: `write a cinematic video prompt about ${topicOf(read.userText)}`,
    answer: 'answer briefly',
  }
  const asked = snippetOf(read.userText) || 'nothing in particular'
  return {
    kind: 'reasoning',
    id: idOf('rs'),
    parts: [
      piecesOf(`**Reading the request** The user wrote “${asked}”, so the task is to ${goals[intent.kind]}.`),
      piecesOf('**Planning the answer** I will keep it short and check it against the request before answering.'),
    ],
  }
}
