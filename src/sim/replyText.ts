import { keywordsOf, pick, seedOf, snippetOf } from './pieces.js'
import { subjectOf } from './subject.js'

/** The answer to a greeting. */
export const GREETING_REPLY = 'Hi there! How can I help you today?'

/** Whether the user's text is a greeting, or asks for one ("Say hi", "hello!", "Good morning"). */
export function isGreeting(userText: string): boolean {
  return /^\s*(?:please\s+)?(?:say\s+)?(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening))\b[\s\w]{0,20}[!.?]*\s*$/i.test(userText)
}

/**
 * A short, deterministic answer that refers to the input. A question or
 * request whose subject can be lifted out (see `subjectOf`) gets an answer
 * that names it; other text is quoted, with its key words named. Questions and statements get different
 * forms; the same text always gets the same answer.
 *
 * @example
 * ```ts
 * answerTo('What is the capital of France?')
 * // 'Here is the short answer on the capital of France — it depends on …' (or another form, fixed by the text)
 * answerTo('A fox in the snow') // 'You wrote “A fox in the snow”. Here is a short reply — you mention fox and snow, …'
 * ```
 */
export function answerTo(userText: string): string {
  const snippet = snippetOf(userText)
  if (!snippet) return 'You sent an empty message — what would you like to talk about?'
  const question = /\?\s*$/.test(userText)
  const seed = seedOf(userText)
  const subject = subjectOf(userText)
  if (subject) {
    if (question) {
      return pick(seed, 0, [
        `${capitalised(subject)}, in short — there is a quick answer and a longer one, and I can walk through it step by step if you tell me more.`,
        `Here is the short answer on ${subject} — it depends on what you need it for; say which part matters most and I will expand on it.`,
      ])
    }
    return pick(seed, 0, [
      `Here is a short take on ${subject} — the essentials first, and I can go into more detail on any part of it.`,
      `A short take on ${subject}: the essentials first — tell me what you need and I will build on that.`,
    ])
  }
  const keywords = keywordsOf(userText)
  const named = keywords.length === 0 ? 'a few things' : listed(keywords)
  const stand = keywords.length === 1 ? 'stands' : 'stand'
  if (question) {
    return pick(seed, 0, [
      `Good question: “${snippet}”. Short answer — it depends on ${named}, and I can walk through each of them if you tell me more.`,
      `You asked “${snippet}”. In brief — the answer turns on ${named}; say which part matters most and I will expand on it.`,
    ])
  }
  return pick(seed, 0, [
    `You wrote “${snippet}”. Here is a short reply — you mention ${named}, and I can go into more detail on any of them.`,
    `Thanks for your message about “${snippet}”. In short — ${named} ${stand} out; tell me what you need and I will build on that.`,
  ])
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}
