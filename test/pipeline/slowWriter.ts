import { Writable } from 'node:stream'

/** An object-mode Writable whose writes finish only when the test releases them, one at a time. */
export interface SlowWriter {
  readonly writable: Writable
  /** Lines written so far (their write callback called). */
  readonly lines: string[]
  /** Whether a write waits for {@link SlowWriter.release}. */
  readonly waiting: boolean
  /** Finishes the waiting write. */
  release(): void
}

/**
 * A destination as slow as the test wants, with no clock: each write's
 * callback is held until `release()`. `highWaterMark` is its buffer, in
 * lines: `stream.pipeline` stops reading once that many wait.
 */
export function slowWriter(highWaterMark: number): SlowWriter {
  const lines: string[] = []
  let pending: (() => void) | undefined
  const writable = new Writable({
    objectMode: true,
    highWaterMark,
    write(line: string, _encoding, callback) {
      pending = () => {
        lines.push(line)
        callback()
      }
    },
  })
  return {
    writable,
    lines,
    get waiting() {
      return pending !== undefined
    },
    release() {
      const finish = pending
      if (!finish) throw new Error('no write is waiting')
      pending = undefined
      finish()
    },
  }
}
