import { describe, expect, it, vi } from 'vitest'
import type { AudioFetch } from '../../src/audio/audioHttp.js'
import { guardedFetch } from '../../src/audio/guardedFetch.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { reply } from './fakeHost.js'

const signal = () => new AbortController().signal
const HEAD = { method: 'HEAD', headers: {}, redirect: 'manual', credentials: 'omit', referrerPolicy: 'no-referrer' } as const

describe('guardedFetch: the probe opens private addresses only for allowPrivateNetwork: true', () => {
  it.each(['true', 'false', 1])('an allowPrivateNetwork of %j opens nothing: a loopback URL is refused, the fetch is not called', async (value) => {
    const fetchAudio = vi.fn<AudioFetch>(async () => reply(200, {}, null))
    const error = await guardedFetch({ fetch: fetchAudio, allowPrivateNetwork: value as never }, 'text-to-video request')('http://127.0.0.1:8080/a.wav', { ...HEAD, signal: signal() }).catch((e: unknown) => e)
    expect(isInvalidRequestError(error)).toBe(true)
    expect(fetchAudio).not.toHaveBeenCalled()
  })

  it('true opens them', async () => {
    const fetchAudio = vi.fn<AudioFetch>(async () => reply(200, {}, null))
    expect((await guardedFetch({ fetch: fetchAudio, allowPrivateNetwork: true }, 'text-to-video request')('http://127.0.0.1:8080/a.wav', { ...HEAD, signal: signal() })).status).toBe(200)
    expect(fetchAudio.mock.calls.map(([url, init]) => [url, init.method, init.redirect])).toEqual([['http://127.0.0.1:8080/a.wav', 'HEAD', 'manual']])
  })
})
