import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { publicFetch as browserPublicFetch } from '../../src/transport/publicFetch.browser.js'

const OPTIONS = { field: 'url', what: 'download' }

describe('createClient: an apiKey over plain http to 127.0.0.0/8 stays on this machine', () => {
  it.each(['http://127.0.10.1:8787', 'http://127.100.200.255/', 'http://127.1.22.33/'])('%s: accepted (each part up to three digits)', (baseUrl) => {
    expect(() => createClient({ baseUrl, apiKey: 'sk-live-0123456789abcdef' })).not.toThrow()
  })
})

describe('publicFetch (browser build): a name is loopback only when it ends in localhost', () => {
  it.each(['http://localhost.example.com/a.wav', 'http://app.localhost.example.com/a.wav', 'http://mylocalhost/a.wav'])('%s is fetched', async (url) => {
    const fetch = (async () => new Response('ok')) as unknown as typeof globalThis.fetch
    expect((await browserPublicFetch({ ...OPTIONS, fetch })(url)).status).toBe(200)
  })

  it('app.localhost is refused', async () => {
    const fetch = (async () => new Response('ok')) as unknown as typeof globalThis.fetch
    await expect(browserPublicFetch({ ...OPTIONS, fetch })('http://app.localhost/a.wav')).rejects.toBeInstanceOf(InvalidRequestError)
  })
})
