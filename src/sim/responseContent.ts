import { brokenArguments } from './badArguments.js'
import type { Conversation } from './conversation.js'
import { preambleText } from './preamble.js'
import type { Intent } from './responseIntent.js'
import type { ReadRequest } from './responseInput.js'
import type { PlannedItem } from './responseModel.js'
import { chunksOf, piecesOf, snippetOf } from './pieces.js'
import { answerTo, GREETING_REPLY, listed } from './replyText.js'
import { instanceOf } from './schemaInstance.js'
import { jsonFromOutputs } from './structuredAnswer.js'
import { answerFromOutputs, argumentTextOf } from './toolAnswer.js'
import { topicOf, videoPromptAbout } from './videoPrompt.js'

/** A random id with a prefix, like OpenAI's (`msg_…`, `fc_…`, `call_…`): Web Crypto, in Node 20 and in browsers alike. */
export const idOf = (prefix: string, bytes = 24): string =>
  `${prefix}_${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`

/** The refusal a `[refuse]` request gets. */
export const REFUSAL = "I'm sorry, but I can't help with that request."

/**
 * The output items of an intent, before any `max_output_tokens` cut: one
 * message (text or refusal), or one function call per tool to call (after
 * a short message when the intent asks for a preamble). Call arguments are
 * built from the conversation's last user text.
 */
export function contentOf(intent: Intent, read: ReadRequest, talk: Conversation): PlannedItem[] {
  const message = (text: string, part: 'output_text' | 'refusal' = 'output_text', split = piecesOf): PlannedItem[] => [
    { kind: 'message', id: idOf('msg'), part, pieces: split(text) },
  ]
  switch (intent.kind) {
    case 'fail':
      return []
    case 'refuse':
      return message(REFUSAL, 'refusal')
    case 'useOutputs':
      return message(answerFromOutputs(named(read, talk)))
    case 'structuredOutputs':
      return message(JSON.stringify(jsonFromOutputs(intent.schema, named(read, talk))), 'output_text', chunksOf)
    case 'call': {
      const names = intent.tools.map((tool) => tool.name)
      const text = argumentTextOf(talk.userText, names)
      const calls: PlannedItem[] = intent.tools.map((tool) => {
        const valid = instanceOf(tool.parameters, text) ?? {}
        const args = intent.badArgs.includes(tool.name) ? brokenArguments(tool.parameters, valid) : valid
        return { kind: 'function_call', id: idOf('fc'), callId: idOf('call', 12), name: tool.name, pieces: chunksOf(JSON.stringify(args)) }
      })
      return intent.preamble ? [...message(preambleText(names, intent.again, talk.userText)), ...calls] : calls
    }
    case 'structured':
      return message(JSON.stringify(instanceOf(intent.schema, topicOf(read.userText))), 'output_text', chunksOf)
    case 'jsonObject':
      return message(JSON.stringify({ answer: answerTo(read.userText) }), 'output_text', chunksOf)
    case 'recall':
      return message(intent.text)
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
    structuredOutputs: `fill in the ${intent.kind === 'structuredOutputs' ? intent.name : ''} JSON schema from the tool results`,
    call: `call ${intent.kind === 'call' ? listed(intent.tools.map((tool) => tool.name)) : 'a tool'}${intent.kind === 'call' && intent.again ? ' again' : ''} with the right arguments`,
    structured: `fill in the ${intent.kind === 'structured' ? intent.name : ''} JSON schema`,
    jsonObject: 'answer with a JSON object',
    recall: 'answer from what was said earlier in the conversation',
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

/** The function outputs of the request, each with the name of the function that returned it. */
function named(read: ReadRequest, talk: Conversation): { name: string; output: string }[] {
  return read.functionOutputs.map(({ callId, output }) => ({ name: talk.callNames.get(callId) ?? callId, output }))
}
