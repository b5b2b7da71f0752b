/** What a JSON string escape decodes to, by the letter after the backslash (`\uXXXX` aside). */
const SIMPLE: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/**
 * Text as a JSON decoder reads it, with where each of its characters came
 * from: character `i` of `text` is the raw span `from[i]`–`to[i]` (end
 * excluded), a whole escape sequence for an escaped one.
 */
export interface DecodedView {
  readonly text: string
  readonly from: Int32Array
  readonly to: Int32Array
}

/** Texts nested deeper than this (JSON in a JSON string in a JSON string…) are not decoded further. */
const MAX_LEVELS = 3

/**
 * Decodes the JSON string escapes of `raw` (`\uXXXX` in either case, each
 * half of a surrogate pair one character as in JSON.parse, `\/`, `\\`,
 * `\"`, `\n` and the other one-letter escapes) wherever they stand; a
 * backslash that starts no valid escape stays as it is. Escapes that only
 * appear once decoded (JSON held in a JSON string) are decoded again, up to
 * three levels (while `deeper` says a decoded text is worth it), each view
 * mapped back to `raw`. Returns the views that
 * differ from `raw`, outermost first.
 *
 * @example
 * ```ts
 * decodedViews('"sk-\\u0061b"')[0]!.text // '"sk-ab"'
 * ```
 */
export function decodedViews(raw: string, deeper: (decoded: string) => boolean = () => true): DecodedView[] {
  const views: DecodedView[] = []
  let text = raw
  let from: Int32Array | undefined
  let to: Int32Array | undefined
  for (let level = 0; level < MAX_LEVELS && text.includes('\\') && (level === 0 || deeper(text)); level++) {
    const step = decodeOnce(text)
    if (step.text === text) break
    // Map each character back through the levels above to a span of `raw`.
    const rawFrom = from ? step.from.map((i) => from![i]!) : step.from
    const rawTo = to ? step.to.map((i) => to![i - 1]!) : step.to
    views.push({ text: step.text, from: rawFrom, to: rawTo })
    ;({ text } = step)
    from = rawFrom
    to = rawTo
  }
  return views
}

function decodeOnce(raw: string): DecodedView {
  const from = new Int32Array(raw.length)
  const to = new Int32Array(raw.length)
  let out = ''
  let n = 0
  let i = 0
  while (i < raw.length) {
    const slash = raw.indexOf('\\', i)
    const plainEnd = slash === -1 ? raw.length : slash
    // Plain characters stand for themselves, one to one.
    out += raw.slice(i, plainEnd)
    for (; i < plainEnd; i++, n++) {
      from[n] = i
      to[n] = i + 1
    }
    if (slash === -1) break
    const [char, length] = escapeAt(raw, slash)
    out += char
    from[n] = slash
    to[n] = slash + length
    n++
    i = slash + length
  }
  return { text: out, from: from.subarray(0, n), to: to.subarray(0, n) }
}

/** The character an escape at `at` (a backslash) stands for, and how many raw characters it takes. */
function escapeAt(raw: string, at: number): [string, number] {
  const letter = raw[at + 1]
  if (letter === 'u') {
    const hex = raw.slice(at + 2, at + 6)
    if (/^[0-9a-fA-F]{4}$/.test(hex)) return [String.fromCharCode(Number.parseInt(hex, 16)), 6]
  } else if (letter !== undefined && Object.hasOwn(SIMPLE, letter)) return [SIMPLE[letter]!, 2]
  return ['\\', 1]
}
