import { send, type AudioFetch } from './audioHttp.js'
import type { AudioFacts } from './audioRules.js'
import { conclude, needsBytes, type Sniff } from './headerFacts.js'
import { byteWindows, type ByteWindows } from './knownBytes.js'
import { openRange, size, type OpenedRange } from './openRange.js'
import { sniffAudio } from './sniffAudio.js'

/** Bytes asked for at the start of a file: every WAV and MP3 header, an ID3v2 tag of a few KB included. */
export const HEAD_BYTES = 4096
/** Bytes asked for at each later window: a WAV chunk header, or an MP3 frame header and its tags (54 bytes), with room. */
export const WINDOW_BYTES = 512
/** Later windows at most: past a long ID3v2 tag (cover art), or past long chunks before a WAV's `data`. */
export const MAX_WINDOWS = 3
/** The most a probe reads of a server that honours ranges: 4 KB and three windows, 5.5 KB. */
export const MAX_PROBE_BYTES = HEAD_BYTES + MAX_WINDOWS * WINDOW_BYTES

/**
 * Reads what an audio file is with as few bytes as possible: `HEAD` for
 * its size (`Content-Length`); a ranged `GET` of its first 4 KB for the
 * format and length (its `Content-Range` total gives the size where HEAD
 * was refused or gave none), stopped as soon as the header is decided;
 * then, when the header goes on past those bytes (a long ID3v2 tag, long
 * chunks before a WAV's `data`), a ranged `GET` of 512 bytes where it
 * needs them, three at most. A server that ignores ranges is read for its
 * first 4 KB only, then the connection is closed.
 *
 * Rejects with `Unreadable` when the file cannot be read (no answer, or
 * an HTTP status other than 2xx); every other outcome is facts, whatever
 * they are (an unknown length or size is simply absent).
 *
 * @example
 * ```ts
 * await readAudio((url, init) => fetch(url, init), sim.sampleUrl('tone-5s.wav'), signal)
 * // { format: 'wav', seconds: 5, bytes: 80044 }
 * ```
 */
export async function readAudio(fetchAudio: AudioFetch, url: string, signal: AbortSignal): Promise<AudioFacts> {
  const headed = await headSize(fetchAudio, url, signal)
  const known = byteWindows()
  const first = await openRange(fetchAudio, url, signal, 0, HEAD_BYTES)
  // HEAD's length when it gave one (some servers say 0 there), else the GET's.
  const bytes = headed || first.total
  let { sniff, end = bytes } = await fill(first, 0, HEAD_BYTES, known, bytes)
  for (let n = 0; n < MAX_WINDOWS && first.ranged; n++) {
    if (!needsBytes(sniff)) break
    const { offset, length } = sniff.need
    if (end !== undefined && offset + length > end) break // past the end of the file: they never come
    const window = await openRange(fetchAudio, url, signal, offset, WINDOW_BYTES)
    if (!window.ranged) {
      window.close() // it ignored the range this time: the bytes wanted may lie megabytes in
      break
    }
    const filled = await fill(window, offset, WINDOW_BYTES, known, bytes)
    sniff = filled.sniff
    end ??= filled.end
  }
  const facts = conclude(sniff)
  return bytes === undefined ? facts : { ...facts, bytes }
}

/** The size HEAD gives, or undefined where it is refused (405, or 403 on a URL signed for GET) or gives none. */
async function headSize(fetchAudio: AudioFetch, url: string, signal: AbortSignal): Promise<number | undefined> {
  const res = await send(fetchAudio, url, 'HEAD', {}, signal)
  void res.body?.cancel().catch(() => {})
  return res.status >= 200 && res.status <= 299 ? size(res.headers.get('content-length')).total : undefined
}

/**
 * Reads a window into `known` chunk by chunk, asking the parser after
 * each, and closes it as soon as the answer is decided or needs bytes this
 * window cannot give. `end`: where the file ends, when its body ended
 * before the window did.
 */
async function fill(opened: OpenedRange, at: number, limit: number, known: ByteWindows, size: number | undefined): Promise<{ sniff: Sniff; end?: number }> {
  let got = 0
  let sniff = sniffAudio(known, size)
  try {
    for await (const chunk of opened.chunks) {
      const piece = chunk.subarray(0, limit - got)
      known.add(at + got, piece)
      got += piece.length
      sniff = sniffAudio(known, size)
      if (!needsBytes(sniff) || got >= limit) return { sniff }
      const { offset, length } = sniff.need
      if (offset < at || offset + length > at + limit) return { sniff }
    }
    return { sniff, end: at + got }
  } finally {
    opened.close()
  }
}
