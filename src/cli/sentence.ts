/**
 * One line of text for the terminal, punctuated once: runs of full stops
 * (`..`, `. .`) become one, an ellipsis character stays, and the line ends
 * with a single full stop unless it ends with `?`, `!` or `:`. Messages are
 * put together from parts (the gateway's words, rxgate's advice, the CLI's
 * hint), and each part may bring its own stop.
 *
 * @example
 * ```ts
 * sentence('Unauthorized.. Check the apiKey') // 'Unauthorized. Check the apiKey.'
 * ```
 */
export function sentence(text: string): string {
  const once = text
    .trim()
    .replace(/\.(\s*\.)+/g, '.')
    .replace(/([!?])\./g, '$1')
  return /[.!?:]$/.test(once) ? once : `${once}.`
}
