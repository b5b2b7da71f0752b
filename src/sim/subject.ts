/** Words that open a sentence without carrying its meaning: "So, what is…", "Please explain…". */
const FILLER = /^(?:(?:so|and|but|ok|okay|well|also|now|please|hey)\b[,\s]*)+/i

/** The forms whose subject can be lifted out, and how to phrase it. */
const FORMS: readonly [RegExp, (match: RegExpExecArray) => string][] = [
  // "What is the capital of France" → "the capital of France"
  [/^(?:what|who|which)(?:'s|’s|\s+(?:is|are|was|were))\s+(.+)$/i, (m) => m[1]!],
  // "How do tides work" → "how tides work": the auxiliary dropped, the order is a statement's
  // ("does" is left alone: dropping it would need the verb after it changed).
  [/^(how|why|where|when)\s+do\s+(.+)$/i, (m) => `${m[1]!.toLowerCase()} ${m[2]!}`],
  // "Can you explain X", "Tell me about X", "Describe X" → "X"
  [/^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:tell\s+me\s+about|explain|describe|summari[sz]e|talk\s+about|what\s+about)\s+(.+)$/i, (m) => m[1]!],
]

/** my → your, I/me → you: the subject as the one who answers says it. */
const SWAPS: ReadonlyMap<string, string> = new Map([
  ['my', 'your'],
  ['mine', 'yours'],
  ['myself', 'yourself'],
  ['me', 'you'],
  ['i', 'you'],
])

/** A subject about the one who answers ("your name"), or one that ends on a preposition ("what X is made of"), does not read as a subject. */
const UNFIT = /\b(?:you|your|yours|yourself)\b|\s(?:of|for|from|about|with|in|on|to|at|by|into)$/i

/** Longer subjects read as a quote, not a subject: the answer quotes them instead. */
const MAX_WORDS = 12

/**
 * What a question or request is about, in the words of the one who answers
 * it: the noun phrase after "what is", "who was", "tell me about",
 * "explain"…, or the clause of a "how do…" or "why does…" question in the
 * order of a statement, with my and I said as your and you. Reads the last
 * question of the text, else its first sentence; `undefined` when no form
 * fits, or the subject is long, asks about the one who answers, or ends on
 * a preposition.
 *
 * @example
 * ```ts
 * subjectOf('What is the capital of France?') // 'the capital of France'
 * subjectOf('How do tides work near the equator?') // 'how tides work near the equator'
 * subjectOf('Can you explain my options, please?') // 'your options'
 * subjectOf('A fox in the snow') // undefined
 * ```
 */
export function subjectOf(text: string): string | undefined {
  const sentences = text.trim().split(/(?<=[.!?])\s+/)
  const sentence = sentences.filter((s) => s.endsWith('?')).at(-1) ?? sentences[0] ?? ''
  const bare = sentence
    .replace(FILLER, '')
    .replace(/[,\s]+please\s*(?=[?.!…]*$)/i, '')
    .replace(/[\s?.!…]+$/, '')
  for (const [form, phrase] of FORMS) {
    const match = form.exec(bare)
    if (!match) continue
    const asked = phrase(match)
    if (UNFIT.test(asked) || asked.split(/\s+/).length > MAX_WORDS) return undefined
    return asked.replace(/[\p{L}']+/gu, (word) => SWAPS.get(word.toLowerCase()) ?? word)
  }
  return undefined
}
