import { sha256 } from './sha256.js'

/**
 * Splits prose into word-sized stream pieces that join back to it exactly;
 * each piece counts as one output token.
 *
 * @example
 * ```ts
 * piecesOf('Slow dolly-in — a café') // ['Slow', ' dolly-in', ' —', ' a', ' café']
 * ```
 */
export function piecesOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? []
}

/**
 * Splits text with few spaces (JSON arguments, structured output) into
 * pieces of `size` characters, never inside a surrogate pair. Each piece is
 * one output token.
 */
export function chunksOf(text: string, size = 8): string[] {
  const characters = [...text]
  const pieces: string[] = []
  for (let at = 0; at < characters.length; at += size) pieces.push(characters.slice(at, at + size).join(''))
  return pieces
}

/** A rough token count: the number of whitespace-separated words. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

/** Bytes of a SHA-256 of the text: deterministic choices for the same input, in Node and in a browser alike. */
export function seedOf(text: string): Uint8Array {
  return sha256(text)
}

/** Picks from `options` with seed byte `index`. */
export function pick<T>(seed: Uint8Array, index: number, options: readonly T[]): T {
  return options[(seed[index % seed.length] ?? 0) % options.length] as T
}

const STOP = new Set(
  'the a an and or but of to in on at for with about from into over under is are was were be been am do does did this that these those it its i you we they he she me my your our their what which who whom how why when where please can could would should will just some any me write give tell show make say'.split(
    ' ',
  ),
)

/** Up to `count` content words of the text, in order, without repeats: what an answer refers back to. */
export function keywordsOf(text: string, count = 3): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []).filter((word) => word.length > 2 && !STOP.has(word))
  return [...new Set(words)].slice(0, count)
}

/** The first `count` words of the text, with an ellipsis when cut. */
export function snippetOf(text: string, count = 8): string {
  const words = text.trim().split(/\s+/).filter(Boolean)
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : words.join(' ')
}
