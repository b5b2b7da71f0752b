import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { publicFetch as browserPublicFetch } from '../../src/transport/publicFetch.browser.js'
import { literalRange } from '../../src/transport/publicAddress.js'
import { hopByHop, type SendHop } from '../../src/transport/publicHops.js'

// Redirects as fetch follows them, hop by hop, through an injected send (no network, no DNS).

const OPTIONS = { field: 'url', what: 'download' }
const ORIGIN = 'https://93.184.215.14'

interface Sent {
  readonly url: string
  readonly method: string
  readonly body: string | null
  readonly headers: Record<string, string>
  readonly signal: AbortSignal | null | undefined
}

/** A send that records each hop (its body read as text) and answers the n-th with `answer(n)`. */
function spySend(answer: (n: number) => Response = () => new Response('ok')): { send: SendHop; sent: Sent[] } {
  const sent: Sent[] = []
  const send: SendHop = async (url, init) => {
    const body = init.body == null ? null : await new Response(init.body).text()
    sent.push({ url, method: init.method ?? 'GET', body, headers: Object.fromEntries(new Headers(init.headers)), signal: init.signal })
    return answer(sent.length)
  }
  return { send, sent }
}

const guarded = (send: SendHop) => hopByHop(OPTIONS, send, (url) => literalRange(url, true))
const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } })
const once = (status: number, location = `${ORIGIN}/next`) => (n: number) => (n === 1 ? redirect(location, status) : new Response('end'))
const failure = (p: Promise<unknown>) => p.then(() => expect.fail('expected a failure'), (e: unknown) => e as Error)

describe('hopByHop: a Request as input', () => {
  it('sends its URL, method, headers, body and signal', async () => {
    const { send, sent } = spySend()
    const controller = new AbortController()
    const request = new Request(`${ORIGIN}/a.wav`, { method: 'PUT', body: 'x', headers: { 'x-trace': '7' }, signal: controller.signal })
    expect(await (await guarded(send)(request)).text()).toBe('ok')
    expect(sent).toEqual([{ url: `${ORIGIN}/a.wav`, method: 'PUT', body: 'x', headers: expect.objectContaining({ 'x-trace': '7' }) as object, signal: request.signal }])
  })

  it('sends its body again on a 307, as fetch does', async () => {
    const { send, sent } = spySend(once(307))
    await guarded(send)(new Request(`${ORIGIN}/a`, { method: 'POST', body: 'x' }))
    expect(sent.map((s) => [s.url, s.method, s.body])).toEqual([
      [`${ORIGIN}/a`, 'POST', 'x'],
      [`${ORIGIN}/next`, 'POST', 'x'],
    ])
  })

  it('reads its body only once its URL passed the checks, and stops reading when its signal aborts', async () => {
    let pulled = 0
    const stalled = () => new ReadableStream<Uint8Array>({ pull: () => void pulled++ }, { highWaterMark: 0 })
    const post = (url: string, signal?: AbortSignal) => new Request(url, { method: 'POST', body: stalled(), duplex: 'half', ...(signal ? { signal } : {}) } as RequestInit)
    const refused = await failure(guarded(spySend().send)(post('http://10.0.0.1/a')))
    expect(refused).toBeInstanceOf(InvalidRequestError)
    expect(pulled).toBe(0)
    const controller = new AbortController()
    const reading = guarded(spySend().send)(post(`${ORIGIN}/a`, controller.signal))
    await new Promise((resolve) => setImmediate(resolve))
    expect(pulled).toBeGreaterThan(0)
    controller.abort(new Error('left'))
    expect((await failure(reading)).message).toBe('left')
  })

  it('a GET sends no body; a body given beside the Request is sent instead of its own, which is not read', async () => {
    const { send, sent } = spySend()
    await guarded(send)(new Request(`${ORIGIN}/a`))
    let pulled = 0
    const own = new ReadableStream<Uint8Array>({ pull: () => void pulled++ }, { highWaterMark: 0 })
    await guarded(send)(new Request(`${ORIGIN}/b`, { method: 'POST', body: own, duplex: 'half' } as RequestInit), { body: 'given' })
    expect(sent.map((s) => [s.method, s.body])).toEqual([
      ['GET', null],
      ['POST', 'given'],
    ])
    expect(pulled).toBe(0)
  })

  it("honours its redirect mode: 'error' fails on a redirect, 'manual' returns it", async () => {
    const error = await failure(guarded(spySend(once(302)).send)(new Request(`${ORIGIN}/a`, { redirect: 'error' })))
    expect(error).toBeInstanceOf(TypeError)
    expect((await guarded(spySend(once(302)).send)(new Request(`${ORIGIN}/a`, { redirect: 'manual' }))).status).toBe(302)
  })
})

describe("hopByHop: redirect: 'error'", () => {
  it('fails on the first redirect as fetch does, and sends nothing more', async () => {
    const { send, sent } = spySend(once(301))
    const error = await failure(guarded(send)(`${ORIGIN}/a`, { redirect: 'error' }))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe("fetch failed: redirected (HTTP 301) with redirect: 'error'")
    expect(sent.length).toBe(1)
  })
})

describe('hopByHop: credentials in the URL', () => {
  it.each([`https://:pw@93.184.215.14/a`, `https://u@93.184.215.14/a`])('%s (a password alone, or a user name alone) is refused, nothing sent', async (url) => {
    const { send, sent } = spySend()
    const error = await failure(guarded(send)(url))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues).toEqual([{ path: 'url', message: 'must not hold a user name or password' }])
    expect(sent).toEqual([])
  })
})

describe('hopByHop: the method on a redirect, by the Fetch rules', () => {
  const JSON_HEADERS = { 'content-type': 'application/json', 'content-language': 'en' }
  it.each([
    [301, 'POST', 'GET', null],
    [302, 'POST', 'GET', null],
    [303, 'PUT', 'GET', null],
    [302, 'PUT', 'PUT', '{}'],
    [301, 'DELETE', 'DELETE', '{}'],
    [308, 'POST', 'POST', '{}'],
  ])('%d of a %s: goes on as %s with body %j', async (status, method, next, body) => {
    const { send, sent } = spySend(once(status))
    await guarded(send)(`${ORIGIN}/a`, { method, body: '{}', headers: JSON_HEADERS })
    expect(sent[1]).toMatchObject({ url: `${ORIGIN}/next`, method: next, body })
    expect(sent[1]!.headers['content-type']).toBe(body === null ? undefined : 'application/json')
    expect(sent[1]!.headers['content-language']).toBe(body === null ? undefined : 'en')
  })

  it('a 303 of a GET keeps its headers; a 303 of a HEAD stays a HEAD', async () => {
    const get = spySend(once(303))
    await guarded(get.send)(`${ORIGIN}/a`, { headers: { 'content-language': 'en', accept: 'audio/*' } })
    expect(get.sent[1]).toMatchObject({ method: 'GET', headers: { 'content-language': 'en', accept: 'audio/*' } })
    const head = spySend(once(303))
    await guarded(head.send)(`${ORIGIN}/a`, { method: 'HEAD', headers: { 'content-language': 'en' } })
    expect(head.sent.map((s) => s.method)).toEqual(['HEAD', 'HEAD'])
    expect(head.sent[1]!.headers['content-language']).toBe('en')
  })

  it('a streamed body is not sent again on a 307: fails as fetch does', async () => {
    const { send, sent } = spySend(once(307))
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode('x')), c.close()) })
    const error = await failure(guarded(send)(`${ORIGIN}/a`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('fetch failed: cannot send a streamed body again on a redirect (HTTP 307)')
    expect(sent.length).toBe(1)
  })
})

describe('publicFetch (browser build): the final URL of a fetch that followed redirects itself', () => {
  it('is not refused when its host is in allowHosts', async () => {
    const followed = Object.defineProperties(new Response('the file'), { redirected: { value: true }, url: { value: 'http://localhost:8080/a.wav' } })
    const get = browserPublicFetch({ ...OPTIONS, allowHosts: ['localhost:8080'], fetch: (async () => followed) as unknown as typeof fetch })
    expect(await (await get('https://cdn.example.com/a.wav')).text()).toBe('the file')
  })
})
