import { brotliCompressSync, gzipSync } from 'node:zlib'
import { lastValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { download$ } from '../../src/download/download$.js'
import { isHttpError } from '../../src/errors/HttpError.js'
import { isPayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { responses$ } from '../../src/responses$.js'
import { collect } from '../helpers/collect.js'
import { KEY } from '../helpers/fixtures.js'
import { startServer, type TestServer } from '../helpers/server.js'

// Over a WHATWG fetch (the browser's, or Node's with the `fetch` option) a
// compressed body arrives decoded, while its Content-Length counts the
// compressed bytes: a few KB on the wire can be many MB of text. Every limit
// on a body's text must hold for the decoded text.

/**
 * A JSON reply of more than `size` bytes, compressed to a few KB, with the
 * compressed length announced; its error message comes after the padding, so
 * only a reader that went past the limit finds it.
 */
function bomb(status: number, size: number, coding: 'gzip' | 'br') {
  const text = `{"pad":"${' '.repeat(size)}","error":{"message":"${PAST}"}}`
  const body = coding === 'gzip' ? gzipSync(text) : brotliCompressSync(text)
  return startServer((_, res) => res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': coding, 'content-length': body.length }).end(body))
}

const PAST = 'read past the limit'
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a rejection'), (e: unknown) => e)
const clientOf = (server: TestServer, maxBodyBytes: number) => createClient({ baseUrl: server.url, apiKey: KEY, fetch: globalThis.fetch, maxBodyBytes, retry: false })

describe('a compressed body over a fetch transport is bounded by its decoded size', () => {
  it.each(['gzip', 'br'] as const)('a %s reply whose text is past maxBodyBytes fails with PayloadTooLargeError, though its Content-Length is within it', async (coding) => {
    const server = await bomb(200, 5_000_000, coding)
    const error = await failure(lastValueFrom(responses$(clientOf(server, 1_000_000), { model: 'm', input: 'x' })))
    expect(isPayloadTooLargeError(error)).toBe(true)
    expect(error).toMatchObject({ limit: 'maxBodyBytes', limitBytes: 1_000_000 })
  })

  it('an error reply whose text is past 64 KB is an HttpError read from its first 64 KB only', async () => {
    const server = await bomb(500, 5_000_000, 'br')
    const error = await failure(lastValueFrom(responses$(clientOf(server, 1_000_000), { model: 'm', input: 'x' })))
    expect(isHttpError(error)).toBe(true)
    expect(error).toMatchObject({ status: 500 })
    expect(String(error)).not.toContain(PAST)
  })

  it('a storage host’s error reply whose text is past 4 KB is an HttpError read from its first 4 KB only', async () => {
    const server = await bomb(403, 5_000_000, 'br')
    const { error } = await collect(download$(`${server.url}/v.mp4`, { blob: true }, { allowHosts: [server.url] }))
    expect(isHttpError(error)).toBe(true)
    expect(error).toMatchObject({ status: 403 })
    expect(String(error)).not.toContain(PAST)
  })
})
