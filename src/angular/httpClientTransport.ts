import type { HttpClient, HttpErrorResponse, HttpEvent, HttpEventType, HttpHeaders } from '@angular/common/http'
import type { Transport, TransportResponse } from '../transport/types.js'
import { ChunkQueue } from './chunkQueue.js'

// HttpEventType's values (unchanged since Angular 4), written out so that this
// file loads no Angular at run time; the types make the compiler check them.
const RESPONSE_HEADER: HttpEventType.ResponseHeader = 2
const DOWNLOAD_PROGRESS: HttpEventType.DownloadProgress = 3
const RESPONSE: HttpEventType.Response = 4

/**
 * A transport over Angular's `HttpClient`, so that rxgate's calls pass
 * through the app's interceptors, `HttpTestingController` and Angular's
 * request tracking. The reply is read with `observe: 'events'` and
 * `reportProgress: true`: status and headers from the header event, the
 * body from the progress events' partial text as it grows (with
 * `provideHttpClient(withFetch())` each network chunk is one event; the
 * XHR backend reports progress too, less often). Aborting the request
 * unsubscribes, which aborts the fetch. Any HTTP status resolves; only a
 * network failure (status 0) rejects, or HttpClient completing without the
 * reply (its app was destroyed, or an interceptor returned none). Replies
 * stay out of HttpClient's transfer cache (`provideClientHydration()`):
 * none is carried in a server-rendered page, none replayed in the browser.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl: '/api/rxgate', transport: httpClientTransport(inject(HttpClient)) })
 * ```
 */
export function httpClientTransport(http: HttpClient): Transport {
  return (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const body = new ChunkQueue()
      const encoder = new TextEncoder()
      let answered = false
      let whole = false
      let seen = 0
      // The progress events carry the text so far: pass on only what is new.
      const take = (text: string | null | undefined) => {
        if (typeof text !== 'string' || text.length <= seen) return
        body.push(encoder.encode(text.slice(seen)))
        seen = text.length
      }
      const answer = (status: number, headers: HttpHeaders) => {
        if (answered) return
        answered = true
        resolve({ status, header: (name) => headers.get(name) ?? undefined, body, text: () => body.text() })
      }
      const fail = (error: unknown) => {
        request.signal.removeEventListener('abort', abort)
        if (answered) body.fail(error)
        else reject(error)
      }
      const subscription = http
        // `transferCache: false`: a gateway reply read during server rendering is neither written into the page
        // (TransferState, which a shared cache may serve to every visitor) nor replayed, stale, in the browser.
        .request(request.method, request.url, { body: request.body ?? null, headers: request.headers, observe: 'events', reportProgress: true, responseType: 'text', transferCache: false })
        .subscribe({
          next: (event: HttpEvent<string>) => {
            if (event.type === RESPONSE_HEADER) answer(event.status, event.headers)
            else if (event.type === DOWNLOAD_PROGRESS) take(event.partialText)
            else if (event.type === RESPONSE) {
              whole = true
              answer(event.status, event.headers)
              take(event.body)
            }
          },
          error: (error: unknown) => {
            if (!isHttpErrorResponse(error) || error.status === 0) return fail(networkError(error))
            // An HTTP error status is a reply like any other: the client reads its body.
            request.signal.removeEventListener('abort', abort)
            answer(error.status, error.headers)
            take(typeof error.error === 'string' ? error.error : '')
            body.end()
          },
          complete: () => {
            // Without the reply event HttpClient gave up: a body it stopped reading is cut, not whole.
            if (!whole) return fail(new TypeError('HttpClient ended the request without its reply: its app was destroyed, or an interceptor completed without passing the request on'))
            request.signal.removeEventListener('abort', abort)
            body.end()
          },
        })
      function abort(): void {
        subscription.unsubscribe()
        fail(new DOMException('The request was aborted.', 'AbortError'))
      }
      if (request.signal.aborted) abort()
      else request.signal.addEventListener('abort', abort, { once: true })
    })
}

/** By its name, which HttpClient sets on every copy of the class. */
function isHttpErrorResponse(error: unknown): error is HttpErrorResponse {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'HttpErrorResponse'
}

function networkError(error: unknown): Error {
  const http = isHttpErrorResponse(error)
  return new TypeError(`HttpClient could not complete the request${http ? ` (${error.message})` : ''}`, { cause: http ? error.error : error })
}
