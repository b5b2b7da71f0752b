import { snippetOf } from './pieces.js'
import type { Said } from './responseInput.js'

/** A clause ends at punctuation or at a word that starts another one. */
const VALUE = String.raw`([^.!?,;\n]+?)(?=\s+(?:and|but|so|because|which|who)\b|[.!?,;\n]|$)`

/** How people tell a model about themselves: each gives a fact's key and its value. */
const STATEMENTS: readonly [RegExp, (match: RegExpExecArray) => [string, string]][] = [
  [new RegExp(String.raw`\bmy\s+([a-z][a-z ]{0,30}?)\s+(?:is|are)\s+${VALUE}`, 'giu'), (m) => [m[1]!, m[2]!]],
  // "I'm French" is no name: "I am" counts after a greeting only ("Hi, I'm Ada").
  // Case matters here (no `i` flag): a name is capitalised.
  [/(?:\b[Cc]all me|^(?:[Hh]i|[Hh]ello|[Hh]ey)\b[,!.]?\s*(?:I am|I'm|I’m))\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?)/gu, (m) => ['name', m[1]!]],
  [new RegExp(String.raw`\bI\s+live\s+in\s+${VALUE}`, 'giu'), (m) => ['home', m[1]!]],
]

/** How people ask about themselves: each gives the key asked for. */
const QUESTIONS: readonly [RegExp, (match: RegExpExecArray) => string][] = [
  [/\b(?:what(?:'s|’s|\s+is|\s+was)|tell\s+me|do\s+you\s+(?:know|remember)|remind\s+me\s+of)\s+my\s+([a-z][a-z ]{0,30}?)\s*[?.!]*\s*$/i, (m) => m[1]!],
  [/\b(?:who\s+am\s+I|do\s+you\s+(?:know|remember)\s+who\s+I\s+am)\b/i, () => 'name'],
  [/\bwhere\s+do\s+I\s+live\b/i, () => 'home'],
]

/**
 * What the user said about themselves in the conversation, by key (`name`,
 * `home`, `favourite colour`…): a later statement replaces an earlier one.
 *
 * @example
 * ```ts
 * factsOf([{ role: 'user', text: 'My name is Ada and I live in Lisbon.' }]) // Map { 'name' => 'Ada', 'home' => 'Lisbon' }
 * ```
 */
export function factsOf(history: readonly Said[]): Map<string, string> {
  const facts = new Map<string, string>()
  for (const { role, text } of history) {
    if (role === 'user') for (const { key, value } of statementsIn(text)) facts.set(key, value)
  }
  return facts
}

const keyOf = (words: string) => words.toLowerCase().replace(/\s+/g, ' ').trim()

/** Each fact a text states, where it states it. */
function statementsIn(text: string): { key: string; value: string; start: number; end: number }[] {
  return STATEMENTS.flatMap(([pattern, fact]) =>
    [...text.matchAll(pattern)].map((match) => {
      const [key, value] = fact(match)
      return { key: keyOf(key), value: value.trim(), start: match.index, end: match.index + match[0].length }
    }),
  )
}

/**
 * The answer that refers back to the conversation (`history`, this
 * message last), when the user's text calls for one: a question about
 * something they said of themselves ("What is my name?"), what they or the
 * model said in the turn before ("What did I just ask?"), or a short
 * message that tells something about themselves ("My name is Ada").
 * `undefined` for any other text.
 *
 * @example
 * ```ts
 * const history = [{ role: 'user', text: 'My name is Ada' }, { role: 'assistant', text: 'Nice to meet you, Ada!' }, { role: 'user', text: 'What is my name?' }]
 * recallAnswer('What is my name?', history) // 'Your name is Ada, as you told me.'
 * ```
 */
export function recallAnswer(userText: string, history: readonly Said[]): string | undefined {
  const facts = factsOf(history)
  for (const [pattern, asked] of QUESTIONS) {
    const match = pattern.exec(userText)
    if (!match) continue
    const key = keyOf(asked(match))
    const value = facts.get(key)
    const home = key === 'home'
    if (value === undefined) return `I don't know ${home ? 'where you live' : `your ${key}`} yet — tell me and I will remember it.`
    return home ? `You live in ${value}, as you told me.` : `Your ${key} is ${value}, as you told me.`
  }
  const earlier = history.slice(0, -1)
  if (/\bwhat\s+did\s+I\s+(?:just\s+)?(?:say|ask|write|tell\s+you)\b/i.test(userText)) {
    const said = earlier.filter((message) => message.role === 'user').at(-1)?.text
    if (said) return `You ${said.trim().endsWith('?') ? 'asked' : 'said'} “${snippetOf(said, 12)}”.`
  }
  if (/\bwhat\s+did\s+you\s+(?:just\s+)?(?:say|write|answer|tell\s+me)\b/i.test(userText)) {
    const said = earlier.filter((message) => message.role === 'assistant').at(-1)?.text
    if (said) return `I said “${snippetOf(said, 12)}”.`
  }
  return introduction(userText)
}

/** The answer to a message that only tells facts about its writer (a word or two around them aside, as in "Hi, I'm Ada"). */
function introduction(userText: string): string | undefined {
  if (userText.includes('?')) return undefined
  const stated = statementsIn(userText)
  const rest = stated.reduce((text, { start, end }) => text.slice(0, start) + ' '.repeat(end - start) + text.slice(end), userText)
  if (stated.length === 0 || (rest.match(/[\p{L}\p{N}]+/gu) ?? []).length > 2) return undefined
  const name = stated.find(({ key }) => key === 'name')
  if (name) return `Nice to meet you, ${name.value}! How can I help you today?`
  const { key, value } = stated[0]!
  return key === 'home' ? `Noted — you live in ${value}. I will remember that.` : `Noted — your ${key} is ${value}. I will remember that.`
}
