import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs'
import { asGatewayError } from '../errors/GatewayError.js'
import { InvalidRequestError, isInvalidRequestError } from '../errors/InvalidRequestError.js'
import { DEFAULTS } from '../policy/defaults.js'
import { publicNetworkIssues, type PublicNetworkOptions } from '../transport/allowHosts.js'
import { millis } from '../validation/options.js'
import { Unreadable, type AudioFetch } from './audioHttp.js'
import { audioIssues } from './audioRules.js'
import { guardedFetch } from './guardedFetch.js'
import { readAudio } from './readAudio.js'

/**
 * Options of {@link checkAudio$}, and the object form of `checkAudio` in
 * `textToVideo$`'s options. `allowHosts` and `allowPrivateNetwork` open
 * private addresses to the probe, which refuses them by default (in
 * `textToVideo$`, the client's own, and the origin of its `baseUrl`, are
 * allowed too).
 */
export interface AudioCheckOptions extends PublicNetworkOptions {
  /**
   * Sends the probe's requests, one per hop (see {@link AudioFetch}).
   * With one of yours, each hop's hostname is still resolved and checked (in
   * Node), but your fetch resolves it again; behind a proxy, pass one.
   *
   * @defaultValue a `fetch` that connects only to the address it checked
   */
  readonly fetch?: AudioFetch
  /**
   * Time allowed for the whole probe, in ms; past it the file counts as unreachable.
   * An integer from 1 to 2^31-1 (what a timer holds); any other value is
   * refused with `InvalidRequestError` before anything is fetched.
   *
   * @defaultValue `600_000` ({@link DEFAULTS | DEFAULTS.timeoutMs}); in `textToVideo$`, the client's `timeoutMs`
   */
  readonly timeoutMs?: number
  /** Scheduler of that time limit. @defaultValue RxJS's `asyncScheduler`; in `textToVideo$`, the client's */
  readonly scheduler?: SchedulerLike
}

/** The outcome of a check that passed. */
export type AudioCheck =
  /**
   * The file was read and keeps every rule it could be checked against.
   * `bytes` and `seconds` are absent when the server or the header does not
   * say; `estimated`: `seconds` is an MP3's size over its bitrate.
   */
  | {
      /** The file was read and checked. */
      readonly checked: true
      /** The format its header shows. */
      readonly format: 'wav' | 'mp3'
      /** Its size, when the server said. */
      readonly bytes?: number
      /** Its length in seconds, when the header says. */
      readonly seconds?: number
      /** `seconds` is an MP3's size over its bitrate, not read from a header. */
      readonly estimated?: boolean
    }
  /** The file could not be checked here, which does not stop the task: a browser refused to read it (CORS), or the URL is not http(s). */
  | {
      /** The file could not be checked here. */
      readonly checked: false
      /** Why, e.g. `not an http(s) URL, which only the gateway can read`. */
      readonly reason: string
    }

const WHAT = 'text-to-video request'

/**
 * Checks a custom audio file against the interface's rules (WAV or MP3,
 * 3 to 30 s, at most 15 MB) by reading a few KB of it: `HEAD`, then ranged
 * `GET`s of its header, with no header of the client's (no `Authorization`).
 * Emits what it found, then completes. `textToVideo$` runs it before
 * creating a task with `audio_url`; call it yourself to show the result first.
 *
 * - A private address (loopback, RFC 1918, link-local such as cloud
 *   metadata at 169.254.169.254, …), in the URL, resolved from its host or
 *   at any hop of its redirects (5 at most): `InvalidRequestError` at
 *   `audio_url`, "refers to a private address (loopback); …", and nothing
 *   reaches that host, unless it is in `allowHosts` or `allowPrivateNetwork`
 *   is true.
 * - `allowHosts` malformed, or an `allowPrivateNetwork` that is not a
 *   boolean (a string "false" is refused, not read as true):
 *   `InvalidRequestError` naming the option, before anything is sent.
 * - A rule broken: `InvalidRequestError` with an issue at `audio_url` per rule,
 *   e.g. "audio is 42.0 s; the interface allows 3 to 30 s".
 * - Unreadable (connection refused, host not found, an HTTP error status,
 *   nothing within `timeoutMs`): `InvalidRequestError` at `audio_url`,
 *   "could not be read: …".
 * - A size or length the server or header does not give breaks no rule.
 * - In a browser, a request that fails without an answer (a CORS refusal
 *   looks just like a network failure there) emits `{ checked: false }`.
 *
 * Unsubscribing aborts the requests in flight.
 *
 * @example
 * ```ts
 * checkAudio$('https://cdn.example.com/voice.wav').subscribe({
 *   next: (found) => console.log(found),
 *   error: (err) => console.error(err.message),
 * })
 * // Output: { checked: true, format: 'wav', seconds: 5, bytes: 80044 }
 * // or: Invalid text-to-video request: audio_url: audio is 42.0 s; the interface allows 3 to 30 s. Nothing was sent.
 * ```
 */
export function checkAudio$(audioUrl: string, options: AudioCheckOptions = {}): Observable<AudioCheck> {
  return new Observable<AudioCheck>((subscriber) => {
    if (typeof audioUrl !== 'string') return subscriber.error(new InvalidRequestError([{ path: 'audio_url', message: `must be a URL (got ${audioUrl === null ? 'null' : typeof audioUrl})` }], WHAT))
    options ??= {}
    // A malformed entry would match nothing and quietly refuse the host meant; a string "false" would open every address.
    const badOptions = publicNetworkIssues('', options)
    // 0 would give up at once; NaN, Infinity or more than a timer holds would fire at once too.
    const badTimeout = options.timeoutMs === undefined ? undefined : millis(1)(options.timeoutMs)
    if (badTimeout) badOptions.push({ path: 'timeoutMs', message: badTimeout })
    if (badOptions.length > 0) return subscriber.error(new InvalidRequestError(badOptions, 'audio check options'))
    if (!/^https?:\/\//i.test(audioUrl)) {
      subscriber.next({ checked: false, reason: 'not an http(s) URL, which only the gateway can read' })
      return subscriber.complete()
    }
    const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs
    const controller = new AbortController()
    let settled = false
    const timer = (options.scheduler ?? asyncScheduler).schedule(() => {
      if (settled) return
      settled = true
      controller.abort()
      subscriber.error(unreadable(`nothing within ${timeoutMs} ms`))
    }, timeoutMs)
    const fetchAudio: AudioFetch = guardedFetch(options, WHAT)

    readAudio(fetchAudio, audioUrl, controller.signal).then(
      (facts) => {
        if (settled) return
        settled = true
        timer.unsubscribe()
        const issues = audioIssues(facts)
        if (issues.length > 0 || facts.format === 'other') return subscriber.error(new InvalidRequestError(issues, WHAT))
        subscriber.next({ checked: true, ...facts })
        subscriber.complete()
      },
      (error: unknown) => {
        if (settled) return
        settled = true
        timer.unsubscribe()
        if (isInvalidRequestError(error)) return subscriber.error(error) // a refused address: said as it is, not "could not be read"
        if (!(error instanceof Unreadable)) return subscriber.error(asGatewayError(error)) // a bug of ours, not the file's fault: typed all the same
        if (!error.network || !inBrowser()) return subscriber.error(unreadable(error.reason))
        subscriber.next({ checked: false, reason: `this page may not read it (CORS, or the network): ${error.reason}` })
        subscriber.complete()
      },
    )
    return () => {
      timer.unsubscribe()
      if (settled) return
      settled = true
      controller.abort()
    }
  })
}

function unreadable(reason: string): InvalidRequestError {
  const advice = 'check that the URL is public, or pass checkAudio: false to create the task anyway'
  return new InvalidRequestError([{ path: 'audio_url', message: `could not be read: ${reason}; ${advice}` }], WHAT)
}

/** A page or a worker, where a fetch refused by CORS fails just like one the network broke, and neither blocks the task. */
function inBrowser(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown }
  return g.document !== undefined || typeof g.importScripts === 'function'
}
