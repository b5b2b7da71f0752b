import type { KnownBytes } from './knownBytes.js'

/** What the header of a file says, once decided. */
export type HeaderFacts =
  /** `seconds`: when the header gives it; `estimated`: from an MP3's bitrate and the file's size, not counted. */
  | { readonly format: 'wav' | 'mp3'; readonly seconds?: number; readonly estimated?: boolean }
  /** Neither: `start` holds the file's first bytes (at most 8), for the message. */
  | { readonly format: 'other'; readonly start: Uint8Array }

/**
 * Not decided yet: the bytes still needed (`need`), and what the parser
 * concludes without them (`otherwise`) when they cannot be had: the file
 * ends first, or the probe's budget of bytes is spent.
 */
export interface NeedBytes {
  readonly need: { readonly offset: number; readonly length: number }
  readonly otherwise: HeaderFacts
}

/** A parser's answer: the facts, or the bytes it needs first. */
export type Sniff = HeaderFacts | NeedBytes

/**
 * Whether the parser asked for more bytes.
 *
 * @example
 * ```ts
 * const sniff = sniffAudio(known, size)
 * const facts = needsBytes(sniff) ? sniff.otherwise : sniff
 * ```
 */
export const needsBytes = (sniff: Sniff): sniff is NeedBytes => 'need' in sniff

/**
 * The facts of an answer, taking `otherwise` when it still needs bytes: for
 * when no more will come (the whole file is known, or the budget is spent).
 *
 * @example
 * ```ts
 * conclude(sniffAudio(prefixOf(wholeFile), wholeFile.length)) // { format: 'mp3', seconds: 4.992 }
 * ```
 */
export const conclude = (sniff: Sniff): HeaderFacts => (needsBytes(sniff) ? sniff.otherwise : sniff)

/**
 * The answer "read `length` bytes at `offset`, else conclude `otherwise`".
 *
 * @example
 * ```ts
 * need(12, 8, { format: 'wav' }) // the next WAV chunk header; without it, a WAV of unknown length
 * ```
 */
export const need = (offset: number, length: number, otherwise: HeaderFacts): NeedBytes => ({ need: { offset, length }, otherwise })

/**
 * "Neither WAV nor MP3", with the file's first 8 bytes for the message; as
 * {@link HeaderFacts}, for an `otherwise`.
 *
 * @example
 * ```ts
 * other(prefixOf(png)) // { format: 'other', start: Uint8Array [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }
 * ```
 */
export const other = (bytes: KnownBytes): HeaderFacts => ({ format: 'other', start: bytes.head(8) })

/**
 * The answer "neither WAV nor MP3", once the first 8 bytes that the message
 * shows are known (the answer must not change as bytes arrive).
 *
 * @example
 * ```ts
 * notAudio(prefixOf(png.subarray(0, 4))) // { need: { offset: 0, length: 8 }, otherwise: { format: 'other', start: … } }
 * ```
 */
export const notAudio = (bytes: KnownBytes): Sniff => (bytes.get(0, 8) ? other(bytes) : need(0, 8, other(bytes)))
