import { Observable } from 'rxjs'

/**
 * The last value of `source$`, as a promise; when `signal` aborts first, the
 * subscription is dropped (its request aborted, its timers cleared) and the
 * promise rejects with the signal's reason.
 *
 * @example
 * const taskId = await until(created$, shutdown.signal)
 */
export function until(source$, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    let value
    let has = false
    const subscription = source$.subscribe({
      next: (v) => {
        value = v
        has = true
      },
      error: (error) => {
        signal.removeEventListener('abort', stop)
        reject(error)
      },
      complete: () => {
        signal.removeEventListener('abort', stop)
        has ? resolve(value) : reject(new Error('no value'))
      },
    })
    function stop() {
      subscription.unsubscribe()
      reject(signal.reason)
    }
    signal.addEventListener('abort', stop, { once: true })
  })
}
