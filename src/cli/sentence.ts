/**
 * One line of text for the terminal, punctuated once: runs of full stops
 * (`..`, `. .`) become one, an ellipsis character stays, and the line ends
 * with a single full stop unless it ends with `?`, `!` or `:`. Messages are
 * put together from parts (the gateway's words, rxgate's advice, the CLI's
 * hint), and each part may bring its own stop. A value quoted as a JSON
 * string is left as it is: it shows what was given.
 *
 * @example
 * ```ts
 * sentence('Unauthorized.. Check the apiKey') // 'Unauthorized. Check the apiKey.'
 * sentence('vendor: bad (got "..")')          // 'vendor: bad (got "..").'
 * ```
 */
export function sentence(text: string): string {
  const once = outsideQuotes(outsideQuotes(text.trim(), /\.(\s*\.)+/g, '.'), /([!?])\./g, '$1')
  return /[.!?:]$/.test(once) ? once : `${once}.`
}

/** Values quoted as JSON strings are what was given (`"../x"`, `"v1.."`): the punctuation rules apply only around them. */
function outsideQuotes(text: string, pattern: RegExp, replacement: string): string {
  return text
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 ? part : part.replace(pattern, replacement)))
    .join('')
}
