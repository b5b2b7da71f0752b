import type { Observable } from 'rxjs'
import { isGatewayError } from '../errors/GatewayError.js'
import { isInvalidRequestError } from '../errors/InvalidRequestError.js'
import { sentence } from './sentence.js'
import { terminalText } from './terminalText.js'

/** Exit codes of the CLI: a signal's is 128 + its number, as a shell reports a process it ended. */
export const EXIT = { ok: 0, failed: 1, badInput: 2, hangup: 129, cancelled: 130, terminated: 143 } as const

/**
 * The signals that stop a command: Ctrl-C, a closed terminal, `kill`. Each
 * one unsubscribes instead of ending the process at once, so the request in
 * flight is aborted and a download's partial file removed.
 */
const STOPS = { SIGINT: EXIT.cancelled, SIGHUP: EXIT.hangup, SIGTERM: EXIT.terminated } as const

/** What `runToExit` needs besides the Observable. */
export interface RunHooks {
  readonly log: (line: string) => void
  /** Lines to add after "cancelled" (how to follow the task that goes on). */
  readonly onCancel?: () => readonly string[]
  /** Lines to add after an error's message. */
  readonly onError?: (error: unknown) => readonly string[]
}

/**
 * Subscribes and resolves with the exit code: 0 on completion, 2 for bad
 * input, 1 for a gateway, task or other failure, 130 when Ctrl-C
 * unsubscribed (which aborts whatever request was in flight), 129 and 143
 * when SIGHUP and SIGTERM did (after SIGHUP the process then ends by the
 * signal itself: see index.ts). A second signal ends the process at once.
 */
export function runToExit<T>(source$: Observable<T>, onValue: (value: T) => void, hooks: RunHooks): Promise<number> {
  const { log } = hooks
  return new Promise((resolve) => {
    const listeners = Object.entries(STOPS).map(([signal, code]) => [signal, () => stop(code)] as const)
    const off = () => listeners.forEach(([signal, listener]) => process.off(signal, listener))
    const stop = (code: number) => {
      subscription.unsubscribe()
      off()
      log('rxgate: cancelled.')
      for (const line of hooks.onCancel?.() ?? []) log(line)
      resolve(code)
    }
    const done = (code: number) => {
      off()
      resolve(code)
    }
    listeners.forEach(([signal, listener]) => process.on(signal, listener))
    const subscription = source$.subscribe({
      next: onValue,
      error: (err: unknown) => {
        // The message holds the gateway's words (an error's title, a task's detail): one line, nothing a terminal acts on.
        const message = terminalText(err instanceof Error ? err.message : String(err), { oneLine: true })
        log(`rxgate: ${sentence(`${isGatewayError(err) ? `${err.name}: ` : ''}${message}`)}`)
        for (const line of hooks.onError?.(err) ?? []) log(line)
        done(isInvalidRequestError(err) ? EXIT.badInput : EXIT.failed)
      },
      complete: () => done(EXIT.ok),
    })
  })
}
