import { once } from 'node:events'
import { delta, frame, lifecycle } from '../helpers/fixtures.js'
import { startSse, startServer, type TestServer } from '../helpers/server.js'

/** Frames written per socket write: the server is never the slow side. */
const BATCH = 500

/**
 * A loopback gateway whose every streamed response is `deltas` text deltas
 * (`x` each) between `response.created` and `response.completed`, written as
 * fast as the client reads. It stops writing when the client leaves
 * (`closedEarly` on the request then resolves).
 */
export async function bigStreamServer(deltas: number): Promise<TestServer> {
  return startServer(async (_req, res) => {
    startSse(res)
    let closed = false
    res.on('close', () => (closed = true))
    let batch = frame(lifecycle('response.created', 0))
    for (let i = 1; i <= deltas && !closed; i++) {
      batch += frame(delta(i, 'x'))
      if (i % BATCH === 0 || i === deltas) {
        if (!res.write(batch)) await drainOrClose(res)
        batch = ''
      }
    }
    if (!closed) res.end(frame(lifecycle('response.completed', deltas + 1, { output_text: 'x'.repeat(deltas) })))
  })
}

/** Waits for 'drain' or 'close', whichever comes first, and leaves no listener of the other behind. */
async function drainOrClose(res: import('node:http').ServerResponse): Promise<void> {
  const done = new AbortController()
  await Promise.race([once(res, 'drain', { signal: done.signal }), once(res, 'close', { signal: done.signal })]).finally(() => done.abort())
}
