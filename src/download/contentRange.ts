/** A `Content-Range` of a 206: the bytes sent (`end` inclusive) and the whole size, when given. */
export interface ContentRange {
  readonly start: number
  readonly end: number
  readonly size: number | undefined
}

/**
 * Reads `Content-Range: bytes <start>-<end>/<size or *>`; undefined for
 * anything else (a range in another unit, or a malformed one), which a
 * download must not trust.
 *
 * @example
 * ```ts
 * parseContentRange('bytes 1400-2898/2899') // { start: 1400, end: 2898, size: 2899 }
 * parseContentRange('bytes 0-9/*')          // { start: 0, end: 9, size: undefined }
 * ```
 */
export function parseContentRange(header: string | undefined): ContentRange | undefined {
  const match = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header ?? '')
  if (!match) return undefined
  const start = Number(match[1])
  const end = Number(match[2])
  const size = match[3] === '*' ? undefined : Number(match[3])
  if (end < start || (size !== undefined && end >= size)) return undefined
  return { start, end, size }
}
