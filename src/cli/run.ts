import type { Observable } from 'rxjs'
import { GatewayError } from '../errors/GatewayError.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failed: 1, badInput: 2, cancelled: 130 } as const

/**
 * Subscribes and resolves with the exit code: 0 on completion, 2 for bad
 * input, 1 for a gateway, task or other failure, 130 when Ctrl-C
 * unsubscribed (which aborts whatever request was in flight).
 */
export function runToExit<T>(source$: Observable<T>, onValue: (value: T) => void, log: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = () => {
      subscription.unsubscribe()
      process.off('SIGINT', onSignal)
      log('rxgate: cancelled')
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
        log(`rxgate: ${err instanceof GatewayError ? `${err.name}: ` : ''}${err instanceof Error ? err.message : String(err)}`)
        done(err instanceof InvalidRequestError ? EXIT.badInput : EXIT.failed)
      },
      complete: () => done(EXIT.ok),
    })
  })
}
