import { setTimeout as wait } from 'node:timers/promises'

/**
 * The simulator's clock: real time plus an offset that `advance` moves
 * forward. Task and background-response progress and URL expiry are computed
 * from `now()` when a request reads them, so advancing the clock needs no
 * timers to fire.
 */
export interface SimClock {
  /** Simulated time, in epoch milliseconds. */
  now(): number
  /** Moves simulated time forward by `ms` (negative values are refused). */
  advance(ms: number): void
  /**
   * Waits `ms` of real time; rejects with an `AbortError` when `signal` or
   * the clock's own shutdown aborts first, so no timer outlives the server.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** Aborts every pending `sleep` and clears its timer. */
  stop(): void
}

/** Creates a clock that starts at the real time. */
export function createClock(): SimClock {
  let offset = 0
  const shutdown = new AbortController()
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceTime: ms must be a finite number of at least 0 (got ${ms})`)
      offset += ms
    },
    sleep(ms, signal) {
      const both = signal ? AbortSignal.any([signal, shutdown.signal]) : shutdown.signal
      if (ms <= 0) return both.aborted ? Promise.reject(both.reason) : Promise.resolve()
      return wait(ms, undefined, { signal: both })
    },
    stop: () => shutdown.abort(),
  }
}
