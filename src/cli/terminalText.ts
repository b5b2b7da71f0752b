/**
 * Characters a terminal acts on instead of showing: C0 controls but tab and
 * line feed (ESC starts colour, cursor, clipboard `OSC 52` and hyperlink
 * `OSC 8` sequences; CR and BS let later text overwrite earlier text), DEL,
 * C1 controls (U+009B is a one-character CSI on many terminals), and the
 * bidirectional overrides and isolates, which reorder what is shown.
 */
const ACTED_ON = /[\0-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text from the gateway (a model's words, an error's title and detail) made
 * safe to write to a terminal: every character a terminal would act on is
 * shown as its JSON escape instead (`\u001b`, `\u202e`; a JSON document so
 * shown still reads as the same document), so a remote party can neither
 * run escape sequences on the user's terminal nor hide text behind other
 * text. Line feeds and tabs stay; `\r\n` becomes `\n` (a carriage return
 * alone is shown). With `oneLine`, line breaks become one space: a message
 * meant as one line cannot forge the lines printed after it.
 *
 * @example
 * ```ts
 * terminalText('hi\x1b]52;c;cm0gLXJmIH4=\x07') // 'hi\\u001b]52;c;cm0gLXJmIH4=\\u0007'
 * terminalText('a\nb', { oneLine: true })    // 'a b'
 * ```
 */
export function terminalText(text: string, { oneLine = false }: { readonly oneLine?: boolean } = {}): string {
  const lines = oneLine ? text.replace(/\s*(\r\n|\r|\n)\s*/g, ' ') : text.replace(/\r\n/g, '\n')
  return lines.replace(ACTED_ON, shown)
}

/** A control character as an escape a person can read. */
function shown(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}
