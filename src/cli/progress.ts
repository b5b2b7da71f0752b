import type { Writable } from 'node:stream'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/** Status lines on stderr: a spinner with elapsed time on a TTY, plain lines otherwise. */
export interface Progress {
  /** Shows a new status; on a TTY it replaces the previous one. */
  status(text: string): void
  /** Writes a line that stays (a finished step). */
  line(text: string): void
  /** Stops the spinner and clears its line. */
  stop(): void
}

export function createProgress(out: Writable & { isTTY?: boolean }, now: () => number = Date.now): Progress {
  const started = now()
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)}s`
  if (!out.isTTY) {
    return {
      status: (text) => out.write(`[${elapsed()}] ${text}\n`),
      line: (text) => out.write(`${text}\n`),
      stop: () => {},
    }
  }
  let current = ''
  let frame = 0
  let timer: NodeJS.Timeout | undefined
  const draw = () => out.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${current} (${elapsed()})`)
  const clear = () => out.write('\r\x1b[2K')
  return {
    status(text) {
      current = text
      timer ??= setInterval(draw, 80)
      draw()
    },
    line(text) {
      clear()
      out.write(`${text}\n`)
      if (timer) draw()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      clear()
    },
  }
}
