import { isFileCountError } from '../download/maxFiles.js'
import { isGatewayError } from '../errors/GatewayError.js'
import { isTaskTimeoutError } from '../errors/TaskTimeoutError.js'
import { isTransient } from '../policy/retryable.js'
import { OutputExistsError } from './outputExistsError.js'
import { endpointArg, followCommand, type CliState } from './taskView.js'

// The lines the CLI adds after a result, a Ctrl-C or an error: what goes on at the gateway, and the command that picks it up.

/** What to say on Ctrl-C while a task was followed: it goes on at the gateway, and how to follow it again. */
export function cancelHint(endpoint: string, id: string, embedded: boolean, out: string | undefined): string[] {
  if (embedded) {
    return [
      `rxgate: task ${id} was on the embedded simulator, which stops with rxgate.`,
      `rxgate: on a real gateway (or under rxgate sim) a task goes on after Ctrl-C; follow it with: ${followCommand(endpoint, id, out)}`,
    ]
  }
  return [`rxgate: task ${id} goes on at the gateway (and is paid for); follow it with:`, `  ${followCommand(endpoint, id, out)}`]
}

/** After an error that left a task running (a deadline, a connection lost), or a result not saved over a file, how to follow it again. */
export function errorHint(error: unknown, embedded: boolean, out: string | undefined, state: CliState): string[] {
  if (error instanceof OutputExistsError && state.task && !embedded) return [`rxgate: the task's results stay at the gateway until they expire; once the file is moved, save them with: ${followCommand(state.task.endpoint, state.task.id, out)}`]
  // Too many results to save: the task is done and paid for; without --out the CLI prints their URLs instead.
  if (isFileCountError(error) && state.task && !embedded) return [`rxgate: the task is done; print its result URLs with: ${followCommand(state.task.endpoint, state.task.id)}`]
  const running = isTaskTimeoutError(error) || isTransient(error)
  if (!isGatewayError(error) || error.taskId === undefined || !error.endpoint || !running || embedded) return []
  return [`rxgate: follow it again with: ${followCommand(endpointArg(error.endpoint), error.taskId, out)}`]
}

/** After a result of the embedded simulator: its URLs end with rxgate. */
export function urlNote(log: (line: string) => void, saved: boolean): void {
  log(
    'rxgate: these URLs are the embedded simulator\'s and stop working when rxgate exits; for lasting ones run rxgate sim ' +
      `in another terminal and set GATEWAY_BASE_URL and GATEWAY_API_KEY as it prints${saved ? '.' : ' (or save the file with --out DIR).'}`,
  )
}
