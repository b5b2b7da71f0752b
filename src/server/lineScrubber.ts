import { keyStretches, MASK, MIN_SECRET_LENGTH, scrubText, WHOLE_KEY } from '../errors/redact.js'

/** The longest line held back while waiting for its end, in bytes (characters, for the ASCII of real events): an event larger than the client's own limit is broken anyway. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024
const MASK_BYTES = new TextEncoder().encode(MASK)

/** Masks a stream of lines chunk by chunk; made by {@link lineScrubber}. */
export interface LineScrubber {
  /**
   * The lines `chunk` completes, masked: none, or the first line (the
   * unfinished one held from before, joined to its end) and then the rest
   * of the chunk's complete lines, as a view of the chunk when it holds no
   * key, so the bulk of a chunk is never copied. Throws once the unfinished
   * line grows past {@link MAX_LINE_BYTES}.
   */
  push(chunk: Uint8Array): Uint8Array[]
  /** The unfinished last line, masked, when the stream ends; `undefined` when there is none. */
  end(): Uint8Array | undefined
}

/**
 * What the relay's stream wrappers share ({@link scrubLines} for web streams,
 * {@link scrubbedChunks} for chunks pulled in Node): each chunk gives back at
 * once everything up to its last line end, masked; only the unfinished last
 * line waits for the next chunk. A key, escaped or not, holds no line break,
 * so every stretch of it lies within one complete line when that line is
 * masked, wherever the chunks were cut. `undefined` for a key too short to
 * mask (a local placeholder): there is nothing to hold back.
 *
 * An ASCII key (every real one) is searched for in the bytes themselves,
 * read one character per byte: UTF-8 never uses an ASCII byte inside a
 * multibyte character, so a match there is the key, and lines without it
 * pass on as the very bytes that came, with no decoding or encoding.
 *
 * @example
 * ```ts
 * const lines = lineScrubber(apiKey)
 * for (const piece of lines?.push(chunk) ?? [chunk]) res.write(piece) // the complete lines, masked
 * ```
 */
export function lineScrubber(secret: string): LineScrubber | undefined {
  if (secret.length < MIN_SECRET_LENGTH) return undefined
  const ascii = [...secret].every((c) => c.charCodeAt(0) < 0x80)
  const scrub = ascii ? (bytes: Uint8Array) => scrubBytes(bytes, secret) : (bytes: Uint8Array) => scrubUtf8(bytes, secret)
  // The unfinished line, as the chunks it came in: joined once, when its end comes, so a long line costs its length, not its length squared.
  let pending: Uint8Array[] = []
  let size = 0
  const line = (last: Uint8Array) => {
    const bytes = pending.length === 0 ? last : concat(pending, last, size)
    pending = []
    size = 0
    return bytes
  }
  return {
    push(chunk) {
      // Only the new chunk is searched: what is pending holds no line end.
      const end = lastLineEnd(chunk) + 1
      const out: Uint8Array[] = []
      if (end > 0) {
        // The first line joins what is pending (a short copy); the lines after it stay where they are.
        const first = pending.length === 0 ? end : firstLineEnd(chunk) + 1
        out.push(scrub(line(chunk.subarray(0, first))))
        if (first < end) out.push(scrub(chunk.subarray(first, end)))
      }
      if (end === chunk.length) return out
      pending.push(chunk.subarray(end))
      size += chunk.length - end
      if (size > MAX_LINE_BYTES) throw new Error(`A stream line is longer than ${MAX_LINE_BYTES} characters.`)
      return out
    },
    end: () => (size > 0 ? scrub(line(new Uint8Array(0))) : undefined),
  }
}

/** `bytes` with every whole key masked (a stretch of it would be an oracle for the caller: see `scrubText`); the same bytes when there is none. */
function scrubBytes(bytes: Uint8Array, secret: string): Uint8Array {
  const stretches = keyStretches(latin1(bytes), secret, WHOLE_KEY)
  if (stretches.length === 0) return bytes
  const masked = stretches.reduce((sum, [start, end]) => sum + MASK_BYTES.length - (end - start), 0)
  const out = new Uint8Array(bytes.length + masked)
  let pos = 0
  let at = 0
  for (const [start, end] of stretches) {
    out.set(bytes.subarray(pos, start), at)
    at += start - pos
    out.set(MASK_BYTES, at)
    at += MASK_BYTES.length
    pos = end
  }
  out.set(bytes.subarray(pos), at)
  return out
}

const utf8 = new TextDecoder()
const encoder = new TextEncoder()

/** The slow way, for a key that is not ASCII: lines end at ASCII bytes, so each slice is whole UTF-8. */
function scrubUtf8(bytes: Uint8Array, secret: string): Uint8Array {
  const text = utf8.decode(bytes)
  const clean = scrubText(text, secret, WHOLE_KEY)
  return clean === text ? bytes : encoder.encode(clean)
}

// Node's Buffer reads bytes as Latin-1 fastest; elsewhere windows-1252 (what the WHATWG calls latin1) also gives one character per byte.
const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'latin1'): string } } }).Buffer
const latin1Decoder = new TextDecoder('latin1')
function latin1(bytes: Uint8Array): string {
  return NodeBuffer ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : latin1Decoder.decode(bytes)
}

/** The index of the last CR or LF in a chunk, or -1. Searched from the end: a line end is rarely far from it. */
function lastLineEnd(bytes: Uint8Array): number {
  let i = bytes.length - 1
  while (i >= 0 && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i--
  return i
}

/** The index of the first CR or LF in a chunk that has one. */
function firstLineEnd(bytes: Uint8Array): number {
  let i = 0
  while (bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++
  return i
}

/** `pieces` (`size` bytes in all) and `last`, in one array. */
export function concat(pieces: readonly Uint8Array[], last: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size + last.length)
  let at = 0
  for (const piece of pieces) {
    out.set(piece, at)
    at += piece.length
  }
  out.set(last, at)
  return out
}
