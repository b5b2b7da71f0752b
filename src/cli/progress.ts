import { terminalText } from './terminalText.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const BAR_WIDTH = 24

/**
 * Status lines on stderr: a spinner with elapsed time on a TTY, plain lines
 * otherwise. The text it is given may hold the gateway's words (a tool
 * call, a streamed prompt): what a terminal would act on in it is shown as
 * escapes ({@link terminalText}), on a TTY and in a log alike; only the
 * spinner's own redraws reach the terminal as control sequences.
 */
export interface Progress {
  /** Shows a new status; on a TTY it replaces the previous one. */
  status(text: string): void
  /** Shows how far a transfer is: a bar on a TTY; otherwise a line at each quarter (and at the end). */
  bar(text: string, bytes: number, total: number | undefined): void
  /** Writes a line that stays (a finished step). */
  line(text: string): void
  /** Writes text as it is (streamed text shown to a person while stdout is kept for --json). */
  write(text: string): void
  /** Stops the spinner and clears its line. */
  stop(): void
}

/** Where progress goes: stderr, or anything with its `write` (the CLI passes one that masks the key). */
export interface ProgressOut {
  write(text: string): unknown
  readonly isTTY?: boolean | undefined
}

export function createProgress(out: ProgressOut, now: () => number = Date.now): Progress {
  const shown = createShown(out, now)
  return {
    status: (text) => shown.status(terminalText(text, { oneLine: true })),
    bar: (text, bytes, total) => shown.bar(terminalText(text, { oneLine: true }), bytes, total),
    line: (text) => shown.line(terminalText(text)),
    write: (text) => shown.write(terminalText(text)),
    stop: () => shown.stop(),
  }
}

/** The progress of {@link createProgress}, for text already made safe to show. */
function createShown(out: ProgressOut, now: () => number): Progress {
  const started = now()
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)}s`
  let quarter = -1
  const barText = (text: string, bytes: number, total: number | undefined) => {
    if (!total) return `${text}: ${bytes.toLocaleString('en-US')} bytes`
    const fraction = Math.min(1, bytes / total)
    const filled = Math.round(fraction * BAR_WIDTH)
    return `${text} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}% (${bytes.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes)`
  }
  if (!out.isTTY) {
    return {
      status: (text) => out.write(`[${elapsed()}] ${text}\n`),
      bar(text, bytes, total) {
        // A log file gets five lines per transfer, not one per chunk.
        const q = total ? Math.floor((Math.min(1, bytes / total) * 100) / 25) : -1
        if (q <= quarter) return
        quarter = q === 4 ? -1 : q
        out.write(`[${elapsed()}] ${barText(text, bytes, total)}\n`)
      },
      line: (text) => out.write(`${text}\n`),
      write: (text) => out.write(text),
      stop: () => {},
    }
  }
  let current = ''
  let frame = 0
  let timer: NodeJS.Timeout | undefined
  const draw = () => out.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${current} (${elapsed()})`)
  const clear = () => out.write('\r\x1b[2K')
  const status = (text: string) => {
    current = text
    timer ??= setInterval(draw, 80)
    draw()
  }
  return {
    status,
    bar: (text, bytes, total) => status(barText(text, bytes, total)),
    line(text) {
      clear()
      out.write(`${text}\n`)
      if (timer) draw()
    },
    write(text) {
      if (timer) clear()
      out.write(text)
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      clear()
    },
  }
}
