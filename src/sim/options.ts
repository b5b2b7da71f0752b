import type { SimFaults } from './faultTypes.js'

/** How long a task (or background response) spends in each state before it finishes. */
export interface SimTiming {
  /** Time in `pending` (`queued` for a background response), in simulated ms. */
  readonly pendingMs: number
  /** Time in `processing` (`in_progress` for a background response), in simulated ms. */
  readonly processingMs: number
}

/** Oddities of real streams and models, each off by default. */
export interface SimQuirks {
  /** Write a `: ping` comment line before the first event and after every fifth one. @defaultValue `false` */
  readonly ping?: boolean
  /** End lines with `\r\n` instead of `\n`. @defaultValue `false` */
  readonly crlf?: boolean
  /** End every stream with a final `data: [DONE]` frame. @defaultValue `false` */
  readonly done?: boolean
  /** Write a short message before the function calls of every response that calls tools, as the `[preamble]` marker does for one conversation. @defaultValue `false` */
  readonly preamble?: boolean
}

/** Options of `startSimulator`; every one is optional. */
export interface SimulatorOptions {
  /** Port to listen on, on 127.0.0.1. @defaultValue `0` (an ephemeral port; read `url`) */
  readonly port?: number
  /** The only bearer token accepted. @defaultValue `'sim-key'` */
  readonly apiKey?: string
  /**
   * Speed of tasks and background responses: `'fast'` (done after about
   * 1.5 s), `'realistic'` (about 3 minutes, like a real render) or an
   * explicit {@link SimTiming}. `advanceTime` skips ahead in any mode.
   *
   * @defaultValue `'fast'`
   */
  readonly timeScale?: 'fast' | 'realistic' | SimTiming
  /** Task status words: `'spec'` `pending/processing/completed/failed`, or `'new'` `queued/running/succeeded/failed`. @defaultValue `'spec'` */
  readonly vocabulary?: 'spec' | 'new'
  /** Usage field names: `'spec'` `prompt_tokens/completion_tokens`, or `'openai'` `input_tokens/output_tokens`. @defaultValue `'spec'` */
  readonly usageShape?: 'spec' | 'openai'
  /** Stream oddities to reproduce. @defaultValue `{}` (none) */
  readonly quirks?: SimQuirks
  /** Failures to inject from the start; change them later with `setFaults`. @defaultValue `{}` (none) */
  readonly faults?: SimFaults
  /** Real milliseconds between two stream frames. @defaultValue `5` */
  readonly streamDelayMs?: number
  /**
   * Accept fields the interface does not list in a text-to-video body (like
   * the real gateway's `safety_filter`); otherwise they are a 400.
   *
   * @defaultValue `false`
   */
  readonly allowUnknownTextToVideoFields?: boolean
  /**
   * `'honour'`: a creation POST repeating an `Idempotency-Key` with
   * the same body gets the first result, with another body a 409.
   * `'ignore'`: every POST creates anew, like a gateway without idempotency,
   * so a client that retries blindly can be caught creating twice.
   *
   * @defaultValue `'honour'`
   */
  readonly idempotency?: 'honour' | 'ignore'
  /** Real milliseconds allowed for reading a task's `audio_url` before it counts as unreachable. @defaultValue `5_000` */
  readonly audioProbeTimeoutMs?: number
}

/** The options with every default filled in. */
export interface SimSettings {
  readonly apiKey: string
  readonly timing: SimTiming
  readonly vocabulary: 'spec' | 'new'
  readonly usageShape: 'spec' | 'openai'
  readonly quirks: SimQuirks
  readonly streamDelayMs: number
  readonly allowUnknownTextToVideoFields: boolean
  readonly idempotency: 'honour' | 'ignore'
  readonly audioProbeTimeoutMs: number
}

const TIMINGS = {
  fast: { pendingMs: 400, processingMs: 1_100 },
  realistic: { pendingMs: 30_000, processingMs: 150_000 },
} as const satisfies Record<string, SimTiming>

/** Fills in the defaults of {@link SimulatorOptions}. */
export function settingsOf(options: SimulatorOptions): SimSettings {
  const scale = options.timeScale ?? 'fast'
  return {
    apiKey: options.apiKey ?? 'sim-key',
    timing: typeof scale === 'string' ? TIMINGS[scale] : scale,
    vocabulary: options.vocabulary ?? 'spec',
    usageShape: options.usageShape ?? 'spec',
    quirks: options.quirks ?? {},
    streamDelayMs: options.streamDelayMs ?? 5,
    allowUnknownTextToVideoFields: options.allowUnknownTextToVideoFields ?? false,
    idempotency: options.idempotency ?? 'honour',
    audioProbeTimeoutMs: options.audioProbeTimeoutMs ?? 5_000,
  }
}
