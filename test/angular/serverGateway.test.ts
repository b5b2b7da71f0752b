import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { serverGateway } from '../../src/angular/serverGateway.js'

afterEach(() => vi.unstubAllGlobals())

describe('serverGateway', () => {
  it('is made even where a server-side DOM defines document (its stand-in key is no secret)', () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://app.example' })
    expect(() => serverGateway({ baseUrl: '/api/rxgate' })).not.toThrow()
  })

  it('its transport never answers, and lets go with an AbortError when the call is unsubscribed', async () => {
    const { transport } = serverGateway({ baseUrl: '/api/rxgate' }).client
    const controller = new AbortController()
    let settled = false
    const pending = transport({ method: 'POST', url: 'http://server-render.invalid/x', headers: {}, signal: controller.signal }).finally(() => (settled = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    controller.abort()
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DOMException)
    expect(error).toMatchObject({ name: 'AbortError', message: 'The request was aborted.' })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})
