import type { Observable } from 'rxjs'
import { isGatewayError } from '../errors/GatewayError.js'
import { isInvalidRequestError } from '../errors/InvalidRequestError.js'
import { sentence } from './sentence.js'

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failed: 1, badInput: 2, cancelled: 130 } as const

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
 * unsubscribed (which aborts whatever request was in flight).
 */
export function runToExit<T>(source$: Observable<T>, onValue: (value: T) => void, hooks: RunHooks): Promise<number> {
  const { log } = hooks
  return new Promise((resolve) => {
    const onSignal = () => {
      subscription.unsubscribe()
      process.off('SIGINT', onSignal)
      log('rxgate: cancelled.')
      for (const line of hooks.onCancel?.() ?? []) log(line)
      resolve(EXIT.cancelled)
    }
    const done = (code: number) => {
      process.off('SIGINT', onSignal)
      resolve(code)
    }
    process.on('SIGINT', onSignal)
    const subscription = source$.subscribe({
      next: onValue,
      error: (err: unknown) => {
        log(`rxgate: ${sentence(`${isGatewayError(err) ? `${err.name}: ` : ''}${err instanceof Error ? err.message : String(err)}`)}`)
        for (const line of hooks.onError?.(err) ?? []) log(line)
        done(isInvalidRequestError(err) ? EXIT.badInput : EXIT.failed)
      },
      complete: () => done(EXIT.ok),
    })
  })
}
