import { createWriteStream } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { firstValueFrom, of } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createClient } from '../../src/client.js'
import { isBufferOverflowError } from '../../src/errors/BufferOverflowError.js'
import { isResponseFailedError } from '../../src/errors/ResponseFailedError.js'
import { toReadable, toTextReadable } from '../../src/node/index.js'
import { outputText } from '../../src/operators/outputText.js'
import { responses$ } from '../../src/responses$.js'
import { startSimulator } from '../../src/sim/index.js'
import { KEY } from '../helpers/fixtures.js'
import { within } from '../helpers/server.js'
import { bigStreamServer } from './streamServer.js'

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-node-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

async function simClient() {
  const sim = await startSimulator()
  onTestFinished(() => sim.close())
  return { sim, client: createClient({ baseUrl: sim.url, apiKey: sim.apiKey }) }
}

/** A Writable that takes nothing: its first write never calls back, so the pipeline backs up to the source. */
const stalled = () => new Writable({ highWaterMark: 1, write: () => {} })

describe('toTextReadable', () => {
  it('pipeline(toTextReadable(events$), fs.createWriteStream(file)) writes the response text', async () => {
    const { client } = await simClient()
    const dir = await tempDir()
    const body = { model: 'gpt-4.1-mini', input: 'Write a haiku about the sea' }
    await pipeline(toTextReadable(responses$(client, { ...body, stream: true })), createWriteStream(join(dir, 'out.txt')))
    const expected = await firstValueFrom(responses$(client, body).pipe(outputText()))
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe(expected)
  })

  it('100,000 deltas reach a file in order, none dropped', async () => {
    const server = await bigStreamServer(100_000)
    const dir = await tempDir()
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    await pipeline(toTextReadable(responses$(client, { model: 'm', input: 'hi', stream: true })), createWriteStream(join(dir, 'out.txt')))
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('x'.repeat(100_000))
  }, 30_000)

  it("backpressure: a destination that stops taking fills the bounded buffer; 'error' then aborts the request", async () => {
    const server = await bigStreamServer(100_000)
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    const error = await pipeline(toTextReadable(responses$(client, { model: 'm', input: 'hi', stream: true }), { highWaterMark: 5_000 }), stalled()).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isBufferOverflowError(error)).toBe(true)
    await within((await server.request(1)).closedEarly, 3_000, 'the server seeing the close')
  }, 30_000)

  it('a failed response fails the pipeline with ResponseFailedError', async () => {
    const { client } = await simClient()
    const dir = await tempDir()
    const error = await pipeline(toTextReadable(responses$(client, { model: 'm', input: 'please [fail]', stream: true })), createWriteStream(join(dir, 'out.txt'))).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isResponseFailedError(error)).toBe(true)
  })

  it('takes an Observable of strings too', async () => {
    const chunks: string[] = []
    for await (const chunk of toTextReadable(of('a', '', 'bc'))) chunks.push(String(chunk))
    expect(chunks.join('')).toBe('abc')
  })
})

describe('toReadable', () => {
  it('is an object-mode Readable of the values, in order', async () => {
    const { client } = await simClient()
    const types: string[] = []
    await pipeline(toReadable(responses$(client, { model: 'm', input: 'hi', stream: true })), async function (source: AsyncIterable<{ type: string }>) {
      for await (const event of source) types.push(event.type)
    })
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
  })

  it('destroying the stream unsubscribes: the server sees the close', async () => {
    const server = await bigStreamServer(100_000)
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    const readable = toReadable(responses$(client, { model: 'm', input: 'hi', stream: true }))
    let n = 0
    for await (const _ of readable) if (++n === 5) break // leaving the loop destroys the stream
    expect(readable.destroyed).toBe(true)
    await within((await server.request(1)).closedEarly, 3_000, 'the server seeing the close')
  }, 30_000)
})
