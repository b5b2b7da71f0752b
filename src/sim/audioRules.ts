import { CUSTOM_AUDIO } from '../contract/index.js'
import type { AudioFacts } from './audioSniff.js'

const MB = 1024 * 1024

/**
 * The first custom-audio rule a file breaks, as the `detail` of the failed
 * task, or undefined when it keeps them all: WAV or MP3, at most 15 MB
 * (when the size is known), 3 to 30 seconds inclusive (when the header gives the length).
 *
 * @example
 * ```ts
 * audioProblem({ format: 'wav', seconds: 31 }, 496_044) // 'audio is 31.0 s; allowed 3 to 30 s'
 * ```
 */
export function audioProblem(facts: AudioFacts, size: number | undefined): string | undefined {
  if (facts.format === 'unknown') return `audio is not WAV or MP3 (the file starts with bytes ${facts.start})`
  if (size !== undefined && size > CUSTOM_AUDIO.maxBytes) {
    return `audio is ${(size / MB).toFixed(1)} MB; allowed at most ${CUSTOM_AUDIO.maxBytes / MB} MB`
  }
  const { seconds } = facts
  if (seconds !== undefined && (seconds < CUSTOM_AUDIO.minSeconds || seconds > CUSTOM_AUDIO.maxSeconds)) {
    // One decimal, unless that would round a breaking length onto a limit (30.01 s is not "30.0 s").
    const shown = ([CUSTOM_AUDIO.minSeconds, CUSTOM_AUDIO.maxSeconds] as number[]).includes(Number(seconds.toFixed(1))) ? seconds.toFixed(3) : seconds.toFixed(1)
    return `audio is ${shown} s; allowed ${CUSTOM_AUDIO.minSeconds} to ${CUSTOM_AUDIO.maxSeconds} s`
  }
  return undefined
}
