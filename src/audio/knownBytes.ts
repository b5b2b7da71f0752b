/**
 * The bytes of a remote file read so far, by offset. The header parsers ask
 * for exact ranges and, when one is missing, say which they need: that is
 * how they work on whatever prefix has arrived.
 */
export interface KnownBytes {
  /** Bytes `offset` to `offset + length` (exclusive), or undefined while any of them is missing. */
  get(offset: number, length: number): Uint8Array | undefined
  /** Up to `max` bytes from the start of the file (fewer when fewer have arrived). */
  head(max: number): Uint8Array
}

/** {@link KnownBytes} that grow as chunks arrive, in windows: the head, then any window read further on. */
export interface ByteWindows extends KnownBytes {
  /** Adds `chunk`, which starts at `offset` of the file. */
  add(offset: number, chunk: Uint8Array): void
}

/**
 * An empty {@link ByteWindows}. A chunk that continues a window joins it;
 * any other starts a window of its own (a jump past a long ID3 tag or WAV
 * chunk). The probe holds a few KB, so a window is joined by copying.
 *
 * @example
 * ```ts
 * const known = byteWindows()
 * known.add(0, new Uint8Array([0x52, 0x49]))
 * known.add(2, new Uint8Array([0x46, 0x46]))
 * known.get(0, 4) // Uint8Array [0x52, 0x49, 0x46, 0x46] ("RIFF")
 * known.get(2, 4) // undefined: bytes 4 and 5 have not arrived
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function byteWindows(): ByteWindows {
  const windows: { offset: number; bytes: Uint8Array }[] = []
  return {
    add(offset, chunk) {
      if (chunk.length === 0) return
      const before = windows.find((w) => w.offset + w.bytes.length === offset)
      if (!before) return void windows.push({ offset, bytes: chunk.slice() })
      const joined = new Uint8Array(before.bytes.length + chunk.length)
      joined.set(before.bytes)
      joined.set(chunk, before.bytes.length)
      before.bytes = joined
    },
    get(offset, length) {
      const w = windows.find((w) => w.offset <= offset && offset + length <= w.offset + w.bytes.length)
      return w && w.bytes.subarray(offset - w.offset, offset - w.offset + length)
    },
    head(max) {
      const first = windows.find((w) => w.offset === 0)
      return first ? first.bytes.subarray(0, max) : new Uint8Array(0)
    },
  }
}

/**
 * {@link KnownBytes} over one prefix of a file (all that is known).
 *
 * @example
 * ```ts
 * sniffAudio(prefixOf(firstBytes), fileSize)
 * ```
 */
export function prefixOf(bytes: Uint8Array): KnownBytes {
  return {
    get: (offset, length) => (offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : undefined),
    head: (max) => bytes.subarray(0, max),
  }
}
