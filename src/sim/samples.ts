import type { Route } from './call.js'
import { toneMp3, type Mp3Variant } from './mp3.js'
import { solidPng } from './png.js'
import { fileOf, serveFile, type VirtualFile } from './virtualFile.js'
import { tooLargeWav, toneWav } from './wav.js'

/** The longest tone a sample URL may ask for, in seconds. */
const MAX_SECONDS = 600

/**
 * The audio samples, for testing `audio_url` without a file host:
 * - `tone-<seconds>s.wav` (e.g. `tone-5s.wav`, `tone-2s.wav`, `tone-31s.wav`,
 *   `tone-2.5s.wav`): a 440 Hz tone, PCM 16-bit mono 8 kHz;
 * - `tone-<seconds>s.mp3`: MPEG-1 Layer III silence with an `Info` frame;
 *   `tone-<seconds>s-cbr.mp3` without it (length from the constant bitrate);
 *   `tone-<seconds>s-id3.mp3` after a 2 KB ID3v2 tag;
 * - `too-large.wav`: a valid 16 MiB WAV (29.1 s), over the 15 MB limit;
 * - `image.mp3`: a PNG image named like an MP3.
 * Seconds run from 0 to 600. Anything else is undefined.
 *
 * @example
 * ```ts
 * sampleFile('tone-31s.wav')?.size // 496044
 * ```
 */
export function sampleFile(name: string): VirtualFile | undefined {
  if (name === 'too-large.wav') return tooLargeWav()
  if (name === 'image.mp3') return fileOf(solidPng(64, 36, [40, 90, 200]), 'audio/mpeg')
  const match = /^tone-(\d+(?:\.\d+)?)s(?:-(cbr|id3))?\.(wav|mp3)$/.exec(name)
  if (!match) return undefined
  const [, seconds, variant, ext] = match
  const value = Number(seconds)
  if (!(value >= 0 && value <= MAX_SECONDS)) return undefined
  if (ext === 'wav') return variant ? undefined : toneWav(value)
  return fileOf(toneMp3(value, (variant ?? 'info') as Mp3Variant), 'audio/mpeg')
}

/** `GET`/`HEAD /samples/<name>`: the samples, without a token, with byte ranges. */
export function sampleRoutes(): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/samples\/([^/]+)$/,
      public: true,
      async handle(call) {
        const file = sampleFile(call.params[0] ?? '')
        if (!file) {
          call.log.status = 404
          call.res.writeHead(404, { 'content-type': 'application/json' })
          return void call.res.end(JSON.stringify({ error: { message: 'No such sample.', type: 'invalid_request_error', param: null, code: 'not_found' } }))
        }
        await serveFile(call, file, { headers: { 'cache-control': 'public, max-age=3600' } })
      },
    },
  ]
}
