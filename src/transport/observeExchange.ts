import type { Subscription } from 'rxjs'
import type { AbortSignalLike } from './abort.js'
import { bodyText, type BodyText } from './bodyText.js'
import { ABORTED, connectionError, endOf, enter, httpError, MAX_ERROR_BODY_BYTES, requestOf, traced, type Head } from './exchange.js'
import type { Connection, ExchangePart, Pass, RequestSpec } from './types.js'

/** What {@link observeExchange} tells its caller, in this order: `open`, `chunk`s, then `end`; or `error` at any point. */
export interface ReplyHandlers {
  /** A 2xx head arrived; call `head.end` once, when the body is read or given up. */
  open(head: Head): void
  chunk(bytes: Uint8Array): void
  /** The 2xx body ended. */
  end(): void
  /** A {@link ConnectionError}, or the `HttpError` of a non-2xx reply (its body read up to 64 KB). */
  error(error: unknown): void
}

/**
 * The Observable twin of `open`: sends one request through the connection's
 * `exchange` once the gate admits it (then `admitted` is called), and hands
 * the reply to `on` as its notifications arrive, on whatever scheduler the
 * exchange delivers them: no Promise on the way, unless the client's budget
 * makes the request wait its turn. Status, `HttpError` and gate bookkeeping
 * are those of `open` (shared helpers). Aborting `signal` unsubscribes the
 * exchange; after it nothing more reaches `on`.
 */
export function observeExchange(conn: Connection, spec: RequestSpec, accept: string, signal: AbortSignalLike, on: ReplyHandlers, admitted?: () => void): void {
  const entry = enter(conn, spec, signal)
  if ('then' in entry) entry.then((pass) => send(conn, spec, accept, signal, on, pass, admitted), on.error)
  else send(conn, spec, accept, signal, on, entry, admitted)
}

function send(conn: Connection, spec: RequestSpec, accept: string, signal: AbortSignalLike, on: ReplyHandlers, given: Pass, admitted?: () => void): void {
  admitted?.()
  const attempt = spec.trace?.attempt(spec, conn.baseUrl + spec.path)
  const pass = attempt ? traced(given, attempt) : given
  let head: Head | undefined
  let errorBody: BodyText | undefined
  // `handed`: a 2xx head went to the caller, whose `head.end` now ends the exchange. `stopped`: nothing more goes to `on`.
  let handed = false
  let stopped = false
  let subscription: Subscription | undefined // eslint-disable-line prefer-const -- assigned below, after the closures that read it
  const failed = (error: unknown): void => {
    stopped = true
    subscription?.unsubscribe()
    if (!handed) pass.done(error)
    on.error(error)
  }
  const refused = (): void => failed(httpError(conn, spec, head!, errorBody!.end()))
  signal.addEventListener('abort', () => {
    subscription?.unsubscribe()
    if (stopped) return
    stopped = true
    if (!handed) pass.done(signal.reason ?? ABORTED)
  })
  subscription = conn.exchange!(requestOf(conn, spec, accept, signal, attempt?.headers)).subscribe({
    next(part: ExchangePart) {
      if (stopped) return
      if (part.type === 'head') {
        if (head) return failed(connectionError(spec, new Error('a second head arrived'), true))
        pass.answered(part.status)
        // Names in any case are taken: an exchange written by hand may not lower them.
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(part.headers)) headers[name.toLowerCase()] = value
        head = { status: part.status, header: (name) => headers[name.toLowerCase()], end: endOf(pass) }
        if (part.status < 200 || part.status > 299) errorBody = bodyText(MAX_ERROR_BODY_BYTES)
        else {
          handed = true
          on.open(head)
        }
      } else if (!head) failed(connectionError(spec, new Error('body bytes arrived before the status'), false))
      else if (!errorBody) on.chunk(part.bytes)
      else if (!errorBody.add(part.bytes)) refused()
    },
    error(err: unknown) {
      if (stopped) return
      // A broken error body still makes the HttpError, with what was read of it.
      if (errorBody) refused()
      else failed(connectionError(spec, err, head !== undefined))
    },
    complete() {
      if (stopped) return
      stopped = true
      if (errorBody) refused()
      else if (!head) failed(connectionError(spec, new Error('the reply ended without a status'), false))
      else on.end()
    },
  })
  // A reply delivered during `subscribe` may have stopped the exchange before `subscription` was known.
  if (stopped) subscription.unsubscribe()
}
