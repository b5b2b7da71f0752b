import { describe, expect, it, vi } from 'vitest'
import type { AudioFetch } from '../../src/audio/audioHttp.js'
import { guardedFetch } from '../../src/audio/guardedFetch.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'

// The browser build: each `x.browser.ts` takes the place of its twin `x.ts`.
vi.mock('../../src/transport/publicFetch.js', () => import('../../src/transport/publicFetch.browser.js'))

const HEAD = { method: 'HEAD', headers: {}, redirect: 'manual', credentials: 'omit', referrerPolicy: 'no-referrer' } as const
/** What a browser's fetch answers after following redirects itself: the final response, with its URL. */
const followedTo = (url: string) => Object.defineProperties(new Response(null, { status: 200 }), { redirected: { value: true }, url: { value: url } })

describe('guardedFetch in the browser build, with a fetch of the caller\'s own', () => {
  it("asks for redirect: 'follow' (a manual redirect is opaque in a browser) and checks the final URL", async () => {
    const fetchAudio = vi.fn<AudioFetch>(async () => followedTo('http://localhost:8080/admin'))
    const error = await guardedFetch({ fetch: fetchAudio }, 'text-to-video request')('https://cdn.example.com/a.wav', { ...HEAD, signal: new AbortController().signal }).catch((e: unknown) => e)
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as { issues: { message: string }[] }).issues[0]!.message).toMatch(/^redirects to a private address \(loopback\)/)
    expect(fetchAudio.mock.calls.map(([, init]) => init.redirect)).toEqual(['follow'])
  })

  it('reads a file whose redirects end at a public URL', async () => {
    const fetchAudio = vi.fn<AudioFetch>(async () => followedTo('https://files.example.net/a.wav'))
    expect((await guardedFetch({ fetch: fetchAudio }, 'text-to-video request')('https://cdn.example.com/a.wav', { ...HEAD, signal: new AbortController().signal })).status).toBe(200)
  })
})
