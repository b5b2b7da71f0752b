import { decodedViews } from './jsonEscapes.js'
import { keySpans, MIN_FRAGMENT, mayHideKey } from './keySpans.js'

export { WHOLE_KEY } from './keySpans.js'
import { scrubGraph } from './scrubGraph.js'

/** Keys shorter than this are placeholders of local gateways (`dev`, `k`): masking them would garble every message. */
export const MIN_SECRET_LENGTH = MIN_FRAGMENT

/** What stands in for the key. */
export const MASK = '[redacted]'
/** Longest message an error leaves with; longer gateway text is cut after the key is masked. */
const MAX_MESSAGE = 2_000

/**
 * Masks every stretch of `text` that shares 8 or more consecutive characters
 * with `secret`: the whole key, and fragments of it, such as a key the
 * gateway echoed half-masked (`sk-proj-12ab…`) or a key cut by someone's
 * truncation. The key is looked for in the raw text and in what a JSON
 * decoder makes of it: a key written with escapes (`sk-\u0061bc…`, `\/`,
 * in a JSON string or in JSON held in a JSON string) is found in the decoded
 * view, and its raw span, whole escape sequences included, is masked, so
 * the text stays valid JSON and decodes to `[redacted]` too.
 *
 * `least` raises the shortest stretch masked; {@link WHOLE_KEY} masks only
 * the whole key. Text that reaches someone who does not hold the key and
 * whose own words the text may repeat (the relay's caller) is masked so:
 * there a masked fragment would tell which of the caller's guesses is part
 * of the key, one character at a time.
 *
 * @example
 * ```ts
 * scrubText('bad key sk-1234567890abcdef', 'sk-1234567890abcdef') // 'bad key [redacted]'
 * scrubText('{"k":"sk-1234567890\\u0061bcdef"}', 'sk-1234567890abcdef') // '{"k":"[redacted]"}'
 * ```
 */
export function scrubText(text: string, secret: string, least = MIN_FRAGMENT): string {
  const stretches = keyStretches(text, secret, least)
  if (stretches.length === 0) return text
  let out = ''
  let pos = 0
  for (const [start, end] of stretches) {
    out += text.slice(pos, start) + MASK
    pos = end
  }
  return out + text.slice(pos)
}

/**
 * Where {@link scrubText} puts a mask in `text`: the stretches, raw or behind
 * JSON escapes, that share 8 or more consecutive characters with `secret`,
 * as sorted `[start, end)` pairs, overlapping and touching ones merged. A
 * caller that holds bytes (the relay) masks them by these positions.
 */
export function keyStretches(text: string, secret: string, least = MIN_FRAGMENT): [number, number][] {
  if (secret.length < MIN_SECRET_LENGTH || text.length < MIN_SECRET_LENGTH) return []
  const spans = keySpans(text, secret, least)
  // Fast path: text that escapes no character of the key (most text, even with `\n` or `\u00e9`) is not decoded.
  if (mayHideKey(text, secret)) {
    for (const view of decodedViews(text, (decoded) => mayHideKey(decoded, secret))) {
      for (const [start, end] of keySpans(view.text, secret, least)) spans.push([view.from[start]!, view.to[end - 1]!])
    }
  }
  if (spans.length < 2) return spans
  spans.sort((x, y) => x[0] - y[0])
  const merged: [number, number][] = [spans[0]!]
  for (const [start, end] of spans) {
    const top = merged[merged.length - 1]!
    if (start <= top[1]) top[1] = Math.max(top[1], end)
    else merged.push([start, end])
  }
  return merged
}

/**
 * Prepares an error to leave the library: masks the key (and any 8-character
 * fragment of it) in its message, stack and every field, payloads and
 * `cause` chain included, and only then shortens an overlong message, so a
 * cut can never leave part of the key behind. The gateway may echo a key
 * anywhere (an error body, a payload that failed validation, a failure
 * message), so this runs once, where errors leave, rather than wherever one
 * is made. The walk reaches what `util.inspect` and `JSON.stringify` show
 * (see {@link scrubGraph}): non-enumerable and symbol-keyed fields,
 * `AggregateError.errors`, Maps, Sets, URLSearchParams, and a `Headers`,
 * `Request`, `Response` or `URL` (swapped for a masked copy, so a caller's
 * own object is left alone). It is iterative, so a deeply nested payload
 * cannot overflow the stack. The error is changed in place and returned.
 *
 * @example
 * ```ts
 * const err = new Error('fetch failed', { cause: { headers: new Headers({ authorization: 'Bearer sk-1234567890abcdef' }) } })
 * util.inspect(redactError(err, 'sk-1234567890abcdef')) // …authorization: 'Bearer [redacted]'…
 * ```
 */
export function redactError<E>(error: E, secret: string | undefined, least = MIN_FRAGMENT): E {
  if (secret && secret.length >= MIN_SECRET_LENGTH) scrubGraph(error, (text) => scrubText(text, secret, least))
  if (error instanceof Error) shortenMessage(error)
  return error
}

function shortenMessage(error: Error): void {
  const { message } = error
  if (message.length <= MAX_MESSAGE) return
  const short = `${message.slice(0, MAX_MESSAGE)}… (${message.length - MAX_MESSAGE} more characters)`
  Object.defineProperty(error, 'message', { value: short, writable: true, configurable: true, enumerable: false })
  if (typeof error.stack === 'string') error.stack = error.stack.replace(message, short)
}
