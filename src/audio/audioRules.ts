import { CUSTOM_AUDIO } from '../contract/limits.js'
import type { RequestIssue } from '../errors/InvalidRequestError.js'
import type { HeaderFacts } from './headerFacts.js'

/** What the probe learned of a file: its header's facts and, when the server said, its size in bytes. */
export type AudioFacts = HeaderFacts & { readonly bytes?: number }

const MB = 1024 * 1024

// Formats people send by mistake, named in the message by their first bytes.
const LOOKALIKES: [RegExp, string][] = [
  [/^89504e47/, 'a PNG image'],
  [/^ffd8ff/, 'a JPEG image'],
  [/^47494638/, 'a GIF image'],
  [/^4f676753/, 'an Ogg file'],
  [/^664c6143/, 'a FLAC file'],
  [/^.{8}66747970/, 'an MP4/M4A file'],
  [/^52494646/, 'a RIFF file that is not WAVE, such as AVI or WebP'],
  [/^(3c|efbbbf3c)/, 'an HTML or XML page'],
  [/^(7b|5b)/, 'a JSON document'],
  // MP3 needs a frame header after the tag: a tag alone (then zeros, or anything else) is no audio.
  [/^494433/, 'an ID3 tag with no MPEG audio frame found after it'],
]

/**
 * The custom-audio rules of the interface a file breaks, as issues at
 * `audio_url`, in this order: WAV or MP3; at most 15 MB (when the size is
 * known); 3 to 30 seconds (when the header gives the length). A size or a
 * length that is not known breaks no rule.
 *
 * @example
 * ```ts
 * audioIssues({ format: 'wav', seconds: 42, bytes: 672_044 })
 * // [{ path: 'audio_url', message: 'audio is 42.0 s; the interface allows 3 to 30 s' }]
 * ```
 */
export function audioIssues(facts: AudioFacts): RequestIssue[] {
  const issues: string[] = []
  if (facts.format === 'other') issues.push(notAudioMessage(facts.start))
  if (facts.bytes !== undefined && facts.bytes > CUSTOM_AUDIO.maxBytes) {
    issues.push(`audio is ${shown(facts.bytes / MB, [CUSTOM_AUDIO.maxBytes / MB])} MB; the interface allows at most ${CUSTOM_AUDIO.maxBytes / MB} MB`)
  }
  const seconds = facts.format === 'other' ? undefined : facts.seconds
  if (seconds !== undefined && (seconds < CUSTOM_AUDIO.minSeconds || seconds > CUSTOM_AUDIO.maxSeconds)) {
    const how = facts.format !== 'other' && facts.estimated ? ' (estimated from its bitrate)' : ''
    issues.push(`audio is ${shown(seconds, [CUSTOM_AUDIO.minSeconds, CUSTOM_AUDIO.maxSeconds])} s${how}; the interface allows ${CUSTOM_AUDIO.minSeconds} to ${CUSTOM_AUDIO.maxSeconds} s`)
  }
  return issues.map((message) => ({ path: 'audio_url', message }))
}

function notAudioMessage(start: Uint8Array): string {
  if (start.length === 0) return 'audio is an empty file; the interface allows WAV or MP3'
  const hex = [...start.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ').toUpperCase()
  const all = [...start].map((b) => b.toString(16).padStart(2, '0')).join('')
  const like = LOOKALIKES.find(([pattern]) => pattern.test(all))?.[1]
  return `audio is not WAV or MP3 (it starts with bytes ${hex}${like ? `: ${like}` : ''}); the interface allows WAV or MP3`
}

/** One decimal, or more where one would round a value that breaks a limit onto the limit (30.04 s is not "30.0 s"). */
function shown(value: number, limits: readonly number[]): string {
  let digits = 1
  while (digits < 6 && limits.includes(Number(value.toFixed(digits)))) digits++
  return value.toFixed(digits)
}
