import { request } from 'node:http'
import type { Simulator } from '../../src/sim/index.js'

// Requests with node:http, for faults that destroy sockets or never end:
// no connection pool (fetch's may open a spare connection after an abort),
// and resets reported as data rather than thrown.

/** The outcome of a raw request: status and body so far, and whether the connection was reset before the reply ended. */
export interface RawOutcome {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: Buffer
  readonly reset: boolean
}

/**
 * A request with node:http that never throws on a reset: it resolves with
 * what arrived and `reset: true`. Used where a fault destroys the socket.
 */
export function raw(sim: Simulator, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<RawOutcome> {
  const text = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
  return new Promise((resolve) => {
    const req = request(`${sim.url}${path}`, {
      method: init.method ?? (text === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json', ...init.headers },
      agent: false,
    })
    const chunks: Buffer[] = []
    let status = 0
    let headers: RawOutcome['headers'] = {}
    const done = (reset: boolean) => resolve({ status, headers, body: Buffer.concat(chunks), reset })
    req.on('response', (res) => {
      status = res.statusCode ?? 0
      headers = res.headers
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done(false))
      res.on('error', () => done(true))
      res.on('aborted', () => done(true))
    })
    req.on('error', () => done(true))
    req.end(text)
  })
}

/**
 * Opens a request with node:http (no connection pool, unlike fetch, whose
 * pool may open a spare connection after an abort) and reads its body
 * until `enough` bytes have come, then destroys the connection: the client
 * leaving (a GET when `body` is undefined). Resolves with the status, headers and what came.
 */
export function readThenLeave(sim: Simulator, path: string, body: unknown, enough: number): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer; sizes: number[] }> {
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${sim.apiKey}` }, agent: false })
    req.on('response', (res) => {
      const parts: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        parts.push(chunk)
        size += chunk.length
        if (size >= enough) {
          req.destroy()
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(parts), sizes: parts.map((p) => p.length) })
        }
      })
      res.on('end', () => reject(new Error(`the body ended after ${size} bytes`)))
    })
    req.on('error', (error) => {
      if (!req.destroyed) reject(error)
    })
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

/** A GET of a public URL that resolves with what arrived before the end or a reset, and the declared length. */
export function download(url: string, range?: string): Promise<{ status: number; declared: number; bytes: Buffer; reset: boolean }> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: range ? { range } : {} })
    req.on('response', (res) => {
      const parts: Buffer[] = []
      const done = (reset: boolean) => resolve({ status: res.statusCode ?? 0, declared: Number(res.headers['content-length']), bytes: Buffer.concat(parts), reset })
      res.on('data', (chunk: Buffer) => parts.push(chunk))
      res.on('end', () => done(false))
      res.on('aborted', () => done(true))
      res.on('error', () => done(true))
    })
    req.on('error', () => resolve({ status: 0, declared: 0, bytes: Buffer.alloc(0), reset: true }))
    req.end()
  })
}
