/** The shortest stretch of the key that is masked: shorter ones cannot be told from ordinary text. */
export const MIN_FRAGMENT = 8
/** As the shortest stretch to mask: the whole key only, whatever its length. */
export const WHOLE_KEY = Number.POSITIVE_INFINITY
const ANCHOR = 4
// Every 8 consecutive characters of the key hold one of its 4-character pieces at a multiple of 5
// (5 consecutive positions always hold a multiple of 5): searching those pieces finds every stretch.
const STRIDE = MIN_FRAGMENT - ANCHOR + 1

/** What searching a text for one key needs, worked out once per key. */
interface KeyPlan {
  readonly secret: string
  /** The key's 4-character pieces at every 5th position, with that position. */
  readonly anchors: readonly (readonly [string, number])[]
  /** Any of those pieces: one pass of the regular expression engine clears a text that holds none (nearly every text) faster than a search for each. */
  readonly anyAnchor: RegExp
  /** The key's characters, as char codes. */
  readonly chars: ReadonlySet<number>
  /** One-letter JSON escapes (`\/`, `\"`…) that stand for a character of the key. */
  readonly escapes: readonly string[]
}

const LETTERS: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' }

// One key at a time in practice (a client's, a server's): keep the last plan.
let last: KeyPlan | undefined

function planOf(secret: string): KeyPlan {
  if (last?.secret === secret) return last
  const anchors: [string, number][] = []
  for (let at = 0; at + ANCHOR <= secret.length; at += STRIDE) anchors.push([secret.slice(at, at + ANCHOR), at])
  const escapes = [...new Set([...secret].filter((c) => Object.hasOwn(LETTERS, c)).map((c) => `\\${LETTERS[c]}`))]
  // Code units, not code points: each half of a surrogate pair may be escaped on its own.
  const chars = new Set(Array.from({ length: secret.length }, (_, i) => secret.charCodeAt(i)))
  const anyAnchor = new RegExp(anchors.map(([piece]) => piece.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'))
  last = { secret, anchors, anyAnchor, chars, escapes }
  return last
}

/**
 * The stretches of `text` (raw, as it stands) that share `least` (8 unless
 * given; {@link WHOLE_KEY}: the key's length) or more consecutive characters with
 * `secret`, each as `[start, end)`, unsorted and possibly overlapping. A handful of native searches for pieces of the
 * key find every candidate, each then grown to its full length; a text
 * without any piece (nearly every text) is cleared by one pass of a regular
 * expression of all the pieces, whatever the key's length.
 *
 * @example
 * ```ts
 * keySpans('key sk-1234567890abcdef!', 'sk-1234567890abcdef') // [[4, 23], …]
 * ```
 */
export function keySpans(text: string, secret: string, least = MIN_FRAGMENT): [number, number][] {
  const spans: [number, number][] = []
  if (secret.length < MIN_FRAGMENT) return spans
  const need = Math.min(least, secret.length)
  const { anchors, anyAnchor } = planOf(secret)
  if (!anyAnchor.test(text)) return spans
  for (const [anchor, offset] of anchors) {
    for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + 1)) {
      let start = at
      let from = offset
      while (start > 0 && from > 0 && text.charCodeAt(start - 1) === secret.charCodeAt(from - 1)) {
        start--
        from--
      }
      let end = at + ANCHOR
      let to = offset + ANCHOR
      while (end < text.length && to < secret.length && text.charCodeAt(end) === secret.charCodeAt(to)) {
        end++
        to++
      }
      if (end - start >= need) spans.push([start, end])
    }
  }
  return spans
}

/**
 * Whether a JSON decoder could find in `text` a character of `secret` that
 * is not written as itself: a `\uXXXX` escape of one of its characters, a
 * one-letter escape of one (`\/` for a key with `/`), or an escaped
 * backslash (`\\`, `\u005c`), which may start an escape once decoded (JSON
 * held in a JSON string). Text that only escapes other characters (`\n`,
 * `\"`, `\u00e9` in ordinary gateway text) needs no decoding.
 *
 * @example
 * ```ts
 * mayHideKey('caf\\u00e9 \\n', 'sk-1234567890abcdef') // false
 * mayHideKey('\\u0073k-1234567890abcdef', 'sk-1234567890abcdef') // true
 * ```
 */
export function mayHideKey(text: string, secret: string): boolean {
  if (!text.includes('\\')) return false
  const { chars, escapes } = planOf(secret)
  for (let at = text.indexOf('\\u'); at !== -1; at = text.indexOf('\\u', at + 1)) {
    const code = hex4(text, at + 2)
    if (code === 0x5c || chars.has(code)) return true
  }
  return text.includes('\\\\') || escapes.some((e) => text.includes(e))
}

/** The value of 4 hex digits at `at`, or -1. */
function hex4(text: string, at: number): number {
  let value = 0
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i) | 0x20 // lower case; NaN past the end becomes 0x20, no digit
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1
    if (digit < 0) return -1
    value = value * 16 + digit
  }
  return value
}
