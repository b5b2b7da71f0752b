import { afterEach, describe, expect, it, vi } from 'vitest'
import { readJsonBody } from '../../src/server/body.js'
import { Refusal } from '../../src/server/reply.js'

const encode = (text: string) => new TextEncoder().encode(text)
/** Time for a body to arrive; long enough that no test here reaches it unless it means to. */
const TIME = 10_000

function request(body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }): Request {
  return new Request('http://app.example/api/rxgate/x', { method: 'POST', headers, body, duplex: 'half' } as RequestInit)
}

/** A body that arrives in these chunks, with no declared length. */
function chunked(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encode(chunk) : chunk)
      controller.close()
    },
  })
}

/** The refusal `readJsonBody` throws, as status, code and message. */
async function refused(req: Request, limit = 1_000): Promise<[number, string, string]> {
  const error = await readJsonBody(req, limit, TIME).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Refusal)
  const { status, code, message } = error as Refusal
  return [status, code, message]
}

describe('readJsonBody', () => {
  it('takes a JSON body sent as application/json, with or without parameters', async () => {
    for (const type of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json ;charset=utf-8']) {
      expect(await readJsonBody(request('{"a":1}', { 'content-type': type }), 1_000, TIME), type).toEqual({ a: 1 })
    }
  })

  it('refuses other media types with a 415 that says what to send', async () => {
    const message = 'The body must be JSON, sent with "Content-Type: application/json".'
    for (const type of ['text/plain', 'text/application/json', 'application/jsonx', 'application/json-seq', 'x-application/json']) {
      expect(await refused(request('{"a":1}', { 'content-type': type })), type).toEqual([415, 'unsupported_media_type', message])
    }
    expect(await refused(request(null, {}))).toEqual([415, 'unsupported_media_type', message])
  })

  it('refuses a body that declares more than the limit before reading any of it', async () => {
    let pulled = false
    const body = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 })
    const req = request(body, { 'content-type': 'application/json', 'content-length': '5000' })
    expect(await refused(req, 1_000)).toEqual([413, 'body_too_large', 'The body is larger than this server accepts (1000 bytes).'])
    expect(pulled).toBe(false)
    // The declared length is enough: a shorter body does not get in under a false one.
    expect(await refused(request('{}', { 'content-type': 'application/json', 'content-length': '1001' }), 1_000)).toEqual([413, 'body_too_large', 'The body is larger than this server accepts (1000 bytes).'])
  })

  it('takes a body of exactly the limit, declared or counted', async () => {
    expect(await readJsonBody(request('{"a":1}', { 'content-type': 'application/json', 'content-length': '7' }), 7, TIME)).toEqual({ a: 1 })
    expect(await readJsonBody(request(chunked('{"a"', ':1}')), 7, TIME)).toEqual({ a: 1 })
    expect(await refused(request(chunked('{"a"', ':10}')), 7)).toEqual([413, 'body_too_large', 'The body is larger than this server accepts (7 bytes).'])
  })

  it('joins a body that arrives in several chunks, a character split between two included', async () => {
    const bytes = encode('{"text":"café au lait","n":[1,2,3]}')
    const at = bytes.indexOf(0xc3) + 1
    expect(await readJsonBody(request(chunked(bytes.subarray(0, 5), bytes.subarray(5, at), bytes.subarray(at))), 1_000, TIME)).toEqual({ text: 'café au lait', n: [1, 2, 3] })
  })

  it('refuses bytes that are not UTF-8, rather than reading them as replacement characters', async () => {
    expect(await refused(request(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])))).toEqual([400, 'invalid_json', 'The body is not valid UTF-8.'])
  })

  it('tells an empty body from one that is not JSON', async () => {
    const empty: [number, string, string] = [400, 'invalid_json', 'The body is empty; this endpoint takes a JSON object.']
    expect(await refused(request(null))).toEqual(empty)
    expect(await refused(request(''))).toEqual(empty)
    expect(await refused(request(' \n\t '))).toEqual(empty)
    expect(await refused(request('{"model":'))).toEqual([400, 'invalid_json', 'The body is not valid JSON.'])
  })
})

describe('readJsonBody: a body that is slow to arrive', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  /** A body that sends `parts`, then neither ends nor errors; `cancelled` tells whether its read was cancelled. */
  function stalled(...parts: string[]) {
    const state = { cancelled: false }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(encode(part))
      },
      cancel: () => void (state.cancelled = true),
    })
    return { body, state }
  }

  it('refuses a body not whole within the time with a 408, cancels its read and leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { body, state } = stalled('{"model":', '"m"')
    let outcome: unknown
    void readJsonBody(request(body), 1_000, 200).then(
      (value) => (outcome = value),
      (error: unknown) => (outcome = error),
    )
    await vi.advanceTimersByTimeAsync(199)
    expect([outcome, state.cancelled]).toEqual([undefined, false])
    await vi.advanceTimersByTimeAsync(1)
    expect(outcome).toBeInstanceOf(Refusal)
    const { status, code, message } = outcome as Refusal
    expect([status, code, message]).toEqual([408, 'body_timeout', 'The body did not arrive whole within 200 ms.'])
    expect(state.cancelled).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('takes a body that arrives in parts within the time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let push!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) })
    const read = readJsonBody(request(body), 1_000, 200)
    push.enqueue(encode('{"a"'))
    await vi.advanceTimersByTimeAsync(150)
    push.enqueue(encode(':1}'))
    push.close()
    expect(await read).toEqual({ a: 1 })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('clears its timer on every other way out: too large, not UTF-8, not JSON, a broken stream', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    expect(await refused(request(chunked('{"a"', ':10}')), 7)).toEqual([413, 'body_too_large', 'The body is larger than this server accepts (7 bytes).'])
    expect(vi.getTimerCount()).toBe(0)
    expect((await refused(request(new Uint8Array([0x22, 0xff, 0x22]))))[1]).toBe('invalid_json')
    expect((await refused(request('{')))[1]).toBe('invalid_json')
    expect(vi.getTimerCount()).toBe(0)
    const broken = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(new Error('reset')) })
    await expect(readJsonBody(request(broken), 1_000, 200)).rejects.toThrow('reset')
    expect(vi.getTimerCount()).toBe(0)
  })
})
