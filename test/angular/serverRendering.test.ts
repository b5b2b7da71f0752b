import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { serverRendering } from '../../src/angular/serverRendering.js'
import { createClient } from '../../src/client.js'

afterEach(() => vi.unstubAllGlobals())

describe('serverRendering', () => {
  it('is made even where a server-side DOM defines document (its stand-in key is no secret)', () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://app.example' })
    expect(() => createClient(serverRendering({ baseUrl: '/api/rxgate' }))).not.toThrow()
  })

  it('its transport never answers, and lets go with an AbortError when the call is unsubscribed', async () => {
    const { transport } = createClient(serverRendering({ baseUrl: '/api/rxgate' }))
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

  it('leaves out an exchange of the app’s own, which would otherwise be used before the transport that sends nothing', () => {
    const exchange = () => {
      throw new Error('sent during server rendering')
    }
    const client = createClient(serverRendering({ baseUrl: '/api/rxgate', exchange }))
    expect(client.exchange).toBeUndefined()
  })
})
