import { frameHeaderAt, mpegSeconds, TAG_BYTES } from './mpegProbe.js'
import { probeWav } from './wavProbe.js'

/** What the first bytes of an audio file say. */
export type AudioFacts =
  | { readonly format: 'wav'; readonly seconds?: number }
  /** `frameAt`: where the first frame must be read when it lies beyond the bytes given (after a long ID3 tag). */
  | { readonly format: 'mp3'; readonly seconds?: number; readonly frameAt?: number }
  /** `start`: the first bytes in hex, for the message. */
  | { readonly format: 'unknown'; readonly start: string }

/**
 * Decides the format and, where the header gives it, the length of an
 * audio file from its first bytes. WAV: `RIFF`…`WAVE`. MP3: an MPEG audio
 * frame header at the very start or right after an ID3v2 tag (no scanning, so a PNG
 * renamed `.mp3` is not mistaken for audio). `size` (the whole file's) lets
 * a constant-bitrate MP3 without a Xing/Info tag be estimated. Returns
 * `'more'` when the bytes end inside something it needs, unless `final`.
 */
export function sniffAudio(bytes: Uint8Array, final: boolean, size?: number): AudioFacts | 'more' {
  if (bytes.length < 4 && !final) return 'more'
  const start = Buffer.from(bytes.subarray(0, 4)).toString('hex').replace(/(..)(?!$)/g, '$1 ')
  const unknown = { format: 'unknown', start } as const
  if (startsWith(bytes, 'RIFF')) {
    const wav = probeWav(bytes, final)
    return wav === 'not-wav' ? unknown : wav
  }
  let audioStart = 0
  if (startsWith(bytes, 'ID3')) {
    if (bytes.length < 10) return final ? { format: 'mp3' } : 'more'
    const tag = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f)
    audioStart = 10 + tag + (bytes[5]! & 0x10 ? 10 : 0) // a footer adds 10 bytes
    if (audioStart + 4 > bytes.length) return final ? { format: 'mp3', frameAt: audioStart } : 'more'
  }
  const header = frameHeaderAt(bytes, audioStart)
  if (!header) {
    if (audioStart === 0 && bytes.length < 4) return final ? unknown : 'more'
    // An ID3 tag proves nothing: a file is MP3 only where an MPEG frame follows it.
    return unknown
  }
  if (!final && audioStart + TAG_BYTES > bytes.length && (size === undefined || bytes.length < size)) return 'more'
  const seconds = mpegSeconds(bytes, audioStart, header, size, audioStart)
  return seconds === undefined ? { format: 'mp3' } : { format: 'mp3', seconds }
}

/**
 * The length of MPEG audio from a window of bytes starting at its first
 * frame (`frameAt`, read separately after a long ID3 tag).
 */
export function sniffFrameWindow(window: Uint8Array, frameAt: number, size?: number): AudioFacts {
  const header = frameHeaderAt(window, 0)
  if (!header) return { format: 'unknown', start: Buffer.from(window.subarray(0, 4)).toString('hex').replace(/(..)(?!$)/g, '$1 ') }
  const seconds = mpegSeconds(window, 0, header, size, frameAt)
  return seconds === undefined ? { format: 'mp3' } : { format: 'mp3', seconds }
}

function startsWith(bytes: Uint8Array, text: string): boolean {
  return bytes.length >= text.length && [...text].every((char, i) => bytes[i] === char.charCodeAt(0))
}

/** Feeds bytes as they arrive: `push` returns the facts once they are decided, `end` decides with what has come. */
export interface AudioSniffer {
  push(chunk: Uint8Array): AudioFacts | undefined
  end(): AudioFacts
}

/**
 * An incremental {@link sniffAudio}: chunks may split the header anywhere
 * (mid-`RIFF`, mid-field, mid-frame header); the answer is the same as for
 * the bytes in one piece. Lets a reader stop downloading once it knows.
 */
export function createAudioSniffer(size?: number): AudioSniffer {
  let bytes: Uint8Array = new Uint8Array(0)
  return {
    push(chunk) {
      bytes = Buffer.concat([bytes, chunk])
      const facts = sniffAudio(bytes, false, size)
      return facts === 'more' ? undefined : facts
    },
    end: () => sniffAudio(bytes, true, size) as AudioFacts,
  }
}
