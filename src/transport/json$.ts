import { Observable, type Subscription } from 'rxjs'
import { TimeoutError } from '../errors/TimeoutError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { AbortSwitch } from './abort.js'
import { ABORTED, open, pathOnly, readText, tooLarge, type Head } from './exchange.js'
import { bodyText, type BodyText } from './bodyText.js'
import { observeExchange } from './observeExchange.js'
import type { Connection, RequestSpec } from './types.js'

/**
 * One request whose reply is a JSON document: emits the parsed value,
 * passed through `decode` (a validator; what it throws is the error), then
 * completes. Cold: each subscription sends the request anew; unsubscribing
 * aborts it at any stage. No retries (the policy layer decides those).
 *
 * Errors: {@link ConnectionError} (network), `HttpError` (non-2xx),
 * {@link TimeoutError} (no whole reply within `timeoutMs`),
 * `PayloadTooLargeError` (a body over `maxBodyBytes`), and
 * {@link ValidationError} for a 2xx body that is not JSON (or an HTML page).
 */
export function json$<T = unknown>(conn: Connection, spec: RequestSpec, decode: (json: unknown) => T = (json) => json as T): Observable<T> {
  return new Observable<T>((subscriber) => {
    const abort = new AbortSwitch()
    let finished = false
    let opened: Head | undefined
    const timeOut = (): void => {
      finished = true
      const error = new TimeoutError(spec.method, pathOnly(spec.path), conn.timeoutMs)
      abort.abort(error)
      opened?.end(error)
      subscriber.error(error)
    }
    // Started when the budget admits the request: waiting for a turn is not the gateway's silence.
    let timer: Subscription | undefined
    const admitted = (): void => {
      if (!finished) timer = conn.scheduler.schedule(timeOut, conn.timeoutMs)
    }

    const answered = (text: string): void => {
      opened!.end()
      if (finished) return
      const value = decode(parseJson(text, spec, opened!.header('content-type')))
      finished = true
      timer?.unsubscribe()
      subscriber.next(value)
      subscriber.complete()
    }
    const failed = (err: unknown): void => {
      opened?.end(err)
      if (finished) return
      finished = true
      timer?.unsubscribe()
      abort.abort() // frees a connection whose body was not read to its end
      subscriber.error(err)
    }

    if (conn.exchange) observeJson(conn, spec, abort, { opened: (head) => (opened = head), answered, failed }, admitted)
    else {
      open(conn, spec, 'application/json', abort, admitted)
        .then(async (res) => {
          opened = res
          answered(await readText(res, spec, conn.maxBodyBytes))
        })
        .catch(failed)
    }
    // Only an unfinished exchange is aborted: aborting costs an error object
    // and wakes the transport's listeners for nothing.
    return () => {
      timer?.unsubscribe()
      if (!finished) {
        finished = true
        abort.abort()
        opened?.end(ABORTED)
      }
    }
  })
}

function parseJson(text: string, spec: RequestSpec, type: string | undefined): unknown {
  const what = (): string => `reply to ${spec.method} ${pathOnly(spec.path)}`
  // A proxy's error page can come with a 200: it is not the gateway's answer.
  if (type && /html/i.test(type)) throw new ValidationError(what(), [{ path: '', message: `is ${type.split(';')[0]}, not JSON` }], text)
  try {
    return JSON.parse(text)
  } catch {
    throw new ValidationError(what(), [{ path: '', message: 'is not JSON' }], text)
  }
}

/**
 * The body of a JSON reply through the connection's `exchange`, read as
 * `readText` reads every body: counted as it arrives, at most `maxBodyBytes`, past
 * which (or past a `content-length` over it) it fails with `PayloadTooLargeError`.
 */
function observeJson(
  conn: Connection,
  spec: RequestSpec,
  abort: AbortSwitch,
  on: { opened(head: Head): void; answered(text: string): void; failed(error: unknown): void },
  admitted: () => void,
): void {
  const limit = conn.maxBodyBytes
  let body: BodyText | undefined
  observeExchange(
    conn,
    spec,
    'application/json',
    abort,
    {
      open: (head) => {
        on.opened(head)
        if (Number(head.header('content-length') ?? Number.NaN) > limit) on.failed(tooLarge(spec, limit))
        else body = bodyText(limit)
      },
      chunk: (bytes) => {
        if (body && !body.add(bytes)) on.failed(tooLarge(spec, limit))
      },
      end: () => {
        try {
          on.answered(body!.end())
        } catch (err) {
          on.failed(err)
        }
      },
      error: on.failed,
    },
    admitted,
  )
}
