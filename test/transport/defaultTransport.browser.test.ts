import { afterEach, describe, expect, it, vi } from 'vitest'
import { AbortSwitch } from '../../src/transport/abort.js'
import { defaultTransport } from '../../src/transport/defaultTransport.browser.js'

describe('defaultTransport (browser build)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("sends through the page's fetch as it is when the call is made, not when the client was made", async () => {
    const transport = defaultTransport({})
    // Installed after the transport: a page (or a test) that patches fetch later is still used.
    const fetchFn = vi.fn(async () => new Response('{"ok":true}', { status: 201, headers: { 'x-seen': 'yes' } }))
    vi.stubGlobal('fetch', fetchFn)
    const res = await transport({ method: 'POST', url: 'https://gateway.test/v1/x', headers: { a: 'b' }, body: '{}', signal: new AbortSwitch() })
    expect(fetchFn).toHaveBeenCalledTimes(1)
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('https://gateway.test/v1/x')
    expect(init).toMatchObject({ method: 'POST', headers: { a: 'b' }, body: '{}' })
    expect(res.status).toBe(201)
    expect(res.header('x-seen')).toBe('yes')
    expect(await res.text()).toBe('{"ok":true}')
  })
})
