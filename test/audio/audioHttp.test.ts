import { describe, expect, it } from 'vitest'
import { send, Unreadable, type AudioFetch } from '../../src/audio/audioHttp.js'

/** The Unreadable that send() rejects with when the fetch rejects with `error`. */
async function failure(error: unknown): Promise<Unreadable> {
  const fetchAudio: AudioFetch = () => Promise.reject(error)
  const thrown = await send(fetchAudio, 'https://cdn.example.com/a.wav', 'GET', {}, new AbortController().signal).catch((e: unknown) => e)
  expect(thrown).toBeInstanceOf(Unreadable)
  expect((thrown as Unreadable).network).toBe(true)
  return thrown as Unreadable
}

/** An error wrapped `depth` times, as Node's fetch wraps the socket's error in a TypeError. */
function wrapped(depth: number, code: string): Error {
  let error: Error = Object.assign(new Error(`socket ${code}`), { code })
  for (let i = 0; i < depth; i++) error = new TypeError(i === depth - 1 ? 'fetch failed' : 'wrapped', { cause: error })
  return error
}

describe('send: why a request failed without an answer', () => {
  it('a host that is not found, or whose name could not be resolved for now', async () => {
    expect((await failure(wrapped(1, 'ENOTFOUND'))).reason).toBe('its host was not found (ENOTFOUND)')
    expect((await failure(wrapped(1, 'EAI_AGAIN'))).reason).toBe('its host was not found (EAI_AGAIN)')
  })

  it('any other code: the connection failed, with the code', async () => {
    expect((await failure(wrapped(0, 'ECONNRESET'))).reason).toBe('the connection failed (ECONNRESET)')
    expect((await failure(wrapped(3, 'ECONNREFUSED'))).reason).toBe('the connection failed (ECONNREFUSED)')
  })

  it('looks four errors deep along the causes, no deeper; without a code, the message', async () => {
    expect((await failure(wrapped(3, 'ENOTFOUND'))).reason).toBe('its host was not found (ENOTFOUND)')
    expect((await failure(wrapped(4, 'ENOTFOUND'))).reason).toBe('the request failed (fetch failed)')
    expect((await failure(new TypeError('Failed to fetch'))).reason).toBe('the request failed (Failed to fetch)')
    expect((await failure('offline')).reason).toBe('the request failed (offline)')
  })
})
