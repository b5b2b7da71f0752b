import { Dispatcher } from 'undici'
import { describe, expect, it } from 'vitest'
import { AbortSwitch } from '../../src/transport/abort.js'
import { undiciTransport } from '../../src/transport/undiciTransport.js'

// The Node transport given a dispatcher of another undici: Node 20 and 22
// ship undici 6, which calls only the handler hooks undici 7 deprecated
// (`onConnect`, `onHeaders`, `onData`, `onComplete`, `onError`). Their own
// `fetch` installs such a dispatcher as the global one, which the relay uses
// (its real use: nodeFetchDispatcher.test.ts).

/** undici 6's handler hooks, as such a dispatcher calls them. */
interface OlderHandler {
  onConnect(abort: (reason?: Error) => void): void
  onHeaders(status: number, raw: unknown[], resume: () => void, message: string): boolean
  onData(chunk: Buffer): boolean
  onComplete(trailers: null): void
  onError(error: Error): void
}

/** One request through a dispatcher of no known undici (a plain object), its handler connected the undici 6 way. */
function olderExchange(signal = new AbortSwitch()) {
  let handler: OlderHandler | undefined
  const dispatcher = { dispatch: (_: unknown, given: OlderHandler) => ((handler = given), true) } as unknown as Dispatcher
  const reply = undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/r', headers: {}, signal })
  if (!handler) throw new Error('nothing was dispatched')
  const aborts: (Error | undefined)[] = []
  let resumes = 0
  const connected = handler
  connected.onConnect((reason) => {
    aborts.push(reason)
    connected.onError(reason ?? new Error('aborted'))
  })
  return { reply, handler: connected, aborts, resume: () => resumes++, resumes: () => resumes }
}

describe('undiciTransport with a dispatcher of another undici', () => {
  it('answers undici 6’s hooks: headers from the raw list (any case, repeated, listed), the socket paused at 64 KB unread and resumed as they are taken', async () => {
    const { reply, handler, resume, resumes } = olderExchange()
    expect(handler.onHeaders(103, [], resume, 'Early Hints')).toBe(true)
    const raw = [Buffer.from('X-Seen'), Buffer.from('one'), Buffer.from('x-seen'), Buffer.from('two'), 'Set-Cookie', [Buffer.from('a=1'), Buffer.from('b=2')], Buffer.from('X-Dangling')]
    expect(handler.onHeaders(200, raw, resume, 'OK')).toBe(true)
    const res = await reply
    expect([res.status, res.header('x-seen'), res.header('set-cookie'), res.header('x-dangling')]).toEqual([200, 'one, two', 'a=1, b=2', undefined])
    expect(handler.onData(Buffer.alloc(63 * 1024))).toBe(true)
    expect(handler.onData(Buffer.alloc(1024))).toBe(false)
    const chunks = res.body[Symbol.asyncIterator]()
    await chunks.next()
    expect(resumes()).toBe(1)
    handler.onComplete(null)
    expect((await chunks.next()).value).toHaveLength(1024)
    expect(await chunks.next()).toEqual({ done: true, value: undefined })
  })

  it('aborts through undici 6’s abort, once, and takes its errors', async () => {
    const signal = new AbortSwitch()
    const { reply, handler, aborts, resume } = olderExchange(signal)
    handler.onHeaders(200, [], resume, 'OK')
    const res = await reply
    const reading = res.text()
    signal.abort(new Error('left'))
    await expect(reading).rejects.toThrow('left')
    expect(aborts.map((a) => a?.message)).toEqual(['left'])

    const failed = olderExchange()
    failed.handler.onError(new Error('refused'))
    await expect(failed.reply).rejects.toThrow('refused')
  })

  it('passes the current hooks on as they are, for a dispatcher of another undici 7 or later', async () => {
    let handler: Dispatcher.DispatchHandler | undefined
    const dispatcher = { dispatch: (_: unknown, given: Dispatcher.DispatchHandler) => ((handler = given), true) } as unknown as Dispatcher
    const signal = new AbortSwitch()
    const reply = undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/r', headers: {}, signal })
    const calls: string[] = []
    const controller = {
      aborted: false,
      paused: false,
      reason: null,
      abort: (reason: Error) => calls.push(`abort: ${reason.message}`),
      pause: () => calls.push('pause'),
      resume: () => calls.push('resume'),
    }
    handler?.onRequestStart?.(controller, {})
    handler?.onResponseStart?.(controller, 200, { 'X-Seen': ['one', 'two'] }, 'OK')
    const res = await reply
    expect(res.header('x-seen')).toBe('one, two')
    handler?.onResponseData?.(controller, Buffer.alloc(64 * 1024))
    expect(calls).toEqual(['pause'])
    const chunks = res.body[Symbol.asyncIterator]()
    expect((await chunks.next()).value).toHaveLength(64 * 1024)
    expect(calls).toEqual(['pause', 'resume'])
    handler?.onResponseEnd?.(controller, {})
    expect(await chunks.next()).toEqual({ done: true, value: undefined })

    const failing = undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/r', headers: {}, signal: new AbortSwitch() })
    handler?.onRequestStart?.(controller, {})
    handler?.onResponseError?.(controller, new Error('reset'))
    await expect(failing).rejects.toThrow('reset')
    signal.abort(new Error('late'))
    expect(calls).toEqual(['pause', 'resume'])
  })
})
