import { probeAudio } from './audioProbe.js'
import { audioProblem } from './audioRules.js'
import { fileSource, httpSource, type AudioSource } from './audioSource.js'
import type { SimSettings } from './options.js'
import { sampleFile } from './samples.js'

/** The check of a task's custom audio, started at creation. */
export interface AudioCheck {
  /** Settles (never rejects) once the audio was read. */
  readonly done: Promise<void>
  /** The rule the audio breaks, once known; undefined while running or when it keeps them all. */
  readonly problem: () => string | undefined
}

/** What an audio check needs of the simulator (its `SimEnv` has all of it). */
export interface AudioCheckEnv {
  readonly settings: SimSettings
  readonly baseUrl: () => string
  readonly closing: AbortSignal
}

/**
 * Starts checking the `audio_url` of a text-to-video task when the
 * simulator can reach it: its own samples (read in process) or any `http`
 * URL on 127.0.0.1 or localhost. Other URLs are not fetched (the simulator
 * stays off the internet) and are accepted as they are: undefined. A URL
 * that cannot be read within `audioProbeTimeoutMs` breaks the rules too.
 */
export function startAudioCheck(env: AudioCheckEnv, audioUrl: string): AudioCheck | undefined {
  const url = new URL(audioUrl)
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(url.hostname)) return undefined
  const signal = AbortSignal.any([env.closing, AbortSignal.timeout(env.settings.audioProbeTimeoutMs)])
  const own = url.origin === env.baseUrl() ? /^\/samples\/([^/]+)$/.exec(url.pathname)?.[1] : undefined
  const file = own === undefined ? undefined : sampleFile(decodeURIComponent(own))
  const source: AudioSource = file ? fileSource(file) : httpSource(url, signal)
  let problem: string | undefined
  const done = probeAudio(source).then(
    ({ facts, size }) => void (problem = audioProblem(facts, size)),
    (error: unknown) => void (problem = `audio_url could not be read: ${reasonOf(error, signal, env.settings.audioProbeTimeoutMs)}`),
  )
  return { done, problem: () => problem }
}

function reasonOf(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `no answer within ${timeoutMs} ms`
  const cause = (error as { cause?: { code?: unknown } }).cause?.code
  return typeof cause === 'string' ? `the connection failed (${cause})` : (error as Error).message
}
