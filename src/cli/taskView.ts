import type { TaskEndpoint } from '../contract/endpoint.js'
import { endpoints } from '../endpoints.js'
import type { TaskEvent } from '../operators/pollTask.js'
import type { Progress } from './progress.js'
import { terminalText } from './terminalText.js'

/** What the CLI remembers while it runs: the task it follows, for the Ctrl-C and error hints. */
export interface CliState {
  task?: { readonly endpoint: string; readonly id: string }
}

/** What a task view needs from the terminal. */
export interface TaskIo {
  readonly out: (text: string) => void
  readonly progress: Progress
  readonly json: boolean
  readonly state: CliState
}

/** A completed task as the CLI prints it with `--json`: the event, and the saved file with `--out`. */
export type CompletedView = Extract<TaskEvent, { type: 'completed' }> & { readonly file?: string; readonly bytes?: number; readonly files?: readonly string[] }

/** Shows a task's step on stderr and remembers the task (`endpoint` as the user would type it). */
export function showTask(event: TaskEvent, io: TaskIo, endpoint = 't2vSpark'): void {
  io.state.task = { endpoint, id: event.taskId }
  if (event.type === 'created') io.progress.line(`Task ${event.taskId} created`)
  else if (event.type === 'completed') io.progress.line(`Task ${event.taskId} completed`)
  else io.progress.status(`Task ${event.taskId}: ${event.type}`)
}

/** Prints a completed task: its URLs, or with `--json` the one JSON document of the command. */
export function printTask(event: TaskEvent | CompletedView, io: TaskIo): void {
  if (event.type !== 'completed') return
  io.progress.stop()
  io.out(io.json ? `${JSON.stringify(event)}\n` : urlLines(event.urls))
}

/**
 * Result URLs one a line, each as a URL parser reads it (the address a
 * download goes to): a line break or control character the gateway put in
 * one is dropped or percent-encoded, so it cannot add a line that a script
 * reading the output would take for another URL.
 */
export function urlLines(urls: readonly string[]): string {
  return urls.map((url) => `${URL.canParse(url) ? new URL(url).href : terminalText(url, { oneLine: true })}\n`).join('')
}

/**
 * How to follow a task again from the terminal, as a command to paste into
 * a POSIX shell: each word the user gave (an endpoint, a folder) is quoted
 * so that the shell runs nothing in it (`$(…)`, backquotes, `;`).
 *
 * @example
 * ```ts
 * followCommand('t2vSpark', id, 'my videos') // "rxgate task t2vSpark <id> --out 'my videos'"
 * ```
 */
export function followCommand(endpoint: string, id: string, out?: string): string {
  // A folder named like a flag (`-x`) goes after `=`, where it cannot be read as one.
  const outFlag = out === undefined ? '' : out.startsWith('-') ? ` --out=${shellWord(out)}` : ` --out ${shellWord(out)}`
  return `rxgate task ${shellWord(endpoint)} ${shellWord(id)}${outFlag}`
}

/** A word as a shell reads it back unchanged: plain as it is, else in single quotes (a quote inside as `'\''`). */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`
}

/** The name `rxgate task` takes for an endpoint: its catalog key, else `vendor/model`. */
export function endpointArg(endpoint: TaskEndpoint): string {
  return Object.entries(endpoints).find(([, e]) => e.name === endpoint.name)?.[0] ?? endpoint.name
}
