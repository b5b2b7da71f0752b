import type { TaskEndpoint } from '../contract/endpoint.js'
import { endpoints } from '../endpoints.js'
import type { TaskEvent } from '../operators/pollTask.js'
import type { Progress } from './progress.js'

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
  io.out(io.json ? `${JSON.stringify(event)}\n` : `${event.urls.join('\n')}\n`)
}

/** How to follow a task again from the terminal. */
export function followCommand(endpoint: string, id: string, out?: string): string {
  return `rxgate task ${endpoint} ${id}${out === undefined ? '' : ` --out ${/^[\w./-]+$/.test(out) ? out : JSON.stringify(out)}`}`
}

/** The name `rxgate task` takes for an endpoint: its catalog key, else `vendor/model`. */
export function endpointArg(endpoint: TaskEndpoint): string {
  return Object.entries(endpoints).find(([, e]) => e.name === endpoint.name)?.[0] ?? endpoint.name
}
