import { fileOf, type VirtualFile } from './virtualFile.js'

/** The format of a PCM WAV file. */
export interface WavFormat {
  readonly sampleRate: number
  readonly channels: number
  readonly bitsPerSample: number
}

/**
 * The 44-byte header of a PCM WAV file (`RIFF`, `WAVE`, a `fmt ` chunk and
 * the `data` chunk's header) for `dataBytes` bytes of samples.
 */
export function wavHeader(format: WavFormat, dataBytes: number): Buffer {
  const header = Buffer.alloc(44)
  const blockAlign = (format.channels * format.bitsPerSample) / 8
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(36 + dataBytes, 4)
  header.write('WAVE', 8, 'latin1')
  header.write('fmt ', 12, 'latin1')
  header.writeUInt32LE(16, 16) // fmt chunk size
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(format.channels, 22)
  header.writeUInt32LE(format.sampleRate, 24)
  header.writeUInt32LE(format.sampleRate * blockAlign, 28) // byte rate
  header.writeUInt16LE(blockAlign, 32)
  header.writeUInt16LE(format.bitsPerSample, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(dataBytes, 40)
  return header
}

const TONE: WavFormat = { sampleRate: 8000, channels: 1, bitsPerSample: 16 }

/**
 * A valid WAV of `seconds` of a 440 Hz tone, PCM 16-bit mono 8 kHz
 * (16,000 bytes a second plus the 44-byte header).
 *
 * @example
 * ```ts
 * toneWav(5).size // 80044
 * ```
 */
export function toneWav(seconds: number): VirtualFile {
  const samples = Math.round(seconds * TONE.sampleRate)
  const bytes = Buffer.alloc(44 + samples * 2)
  wavHeader(TONE, samples * 2).copy(bytes)
  for (let i = 0; i < samples; i++) bytes.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / TONE.sampleRate) * 9830), 44 + i * 2)
  return fileOf(bytes, 'audio/wav')
}

/** The size of the too-large sample: 16 MiB, over the 15 MB limit. */
export const TOO_LARGE_BYTES = 16 * 1024 * 1024

/**
 * A 16 MiB WAV of silence whose duration (96 kHz, 24-bit, stereo: about
 * 29.1 s) is within the rules, so only its size breaks them. Produced on
 * demand: the header, then zeros.
 */
export function tooLargeWav(): VirtualFile {
  const header = wavHeader({ sampleRate: 96_000, channels: 2, bitsPerSample: 24 }, TOO_LARGE_BYTES - 44)
  return {
    size: TOO_LARGE_BYTES,
    type: 'audio/wav',
    slice(start, end) {
      const out = Buffer.alloc(end - start)
      if (start < header.length) header.copy(out, 0, start, Math.min(end, header.length))
      return out
    },
  }
}
