import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'

// A stand-in for a user's audio host on 127.0.0.1, for the audio_url checks.

/** File hosts started by the current test; closed after it. */
export const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A file host on 127.0.0.1 that records what it was asked; `handle` answers. */
export async function host(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = []
  const server = createServer((req, res) => {
    seen.push(req)
    handle(req, res)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

/** Serves `bytes` with single byte ranges, as a file host does. */
export function ranged(bytes: Buffer) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const [, a, b] = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '') ?? []
    if (a === undefined) return res.writeHead(200, { 'content-length': bytes.length }).end(bytes)
    const end = Math.min(b ? Number(b) : bytes.length - 1, bytes.length - 1)
    res.writeHead(206, { 'content-range': `bytes ${a}-${end}/${bytes.length}`, 'content-length': end - Number(a) + 1 })
    res.end(bytes.subarray(Number(a), end + 1))
  }
}
