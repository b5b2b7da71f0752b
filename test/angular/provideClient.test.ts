import { runInInjectionContext } from '@angular/core'
import { lastValueFrom, map, toArray } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { injectClient } from '../../src/angular/injectClient.js'
import { provideClient } from '../../src/angular/provideClient.js'
import { injectGateway, provideGateway } from '../../src/angular/provideGateway.js'
import { CLIENT, GATEWAY } from '../../src/angular/tokens.js'
import { responses$ } from '../../src/index.js'
import { appInjector, recordingFeature } from './helpers.js'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('provideClient', () => {
  it('provides a client alone (no gateway) that sends through the feature’s transport', async () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://app.example' })
    const feature = recordingFeature()
    const injector = appInjector('browser', provideClient(() => ({ baseUrl: '/api/rxgate' }), feature))
    const client = runInInjectionContext(injector, injectClient)
    expect(injector.get(CLIENT)).toBe(client)
    expect(injector.get(GATEWAY, null)).toBeNull()
    const statuses = await lastValueFrom(responses$(client, { model: 'm', input: 'hi' }).pipe(map((r) => r.status), toArray()))
    expect(statuses).toEqual(['completed'])
    expect(feature.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/rxgate/vendors/vendor-a/v1/responses'])
  })

  it('during server-side rendering checks input, sends nothing and starts no timer', async () => {
    vi.useFakeTimers()
    const feature = recordingFeature()
    const client = runInInjectionContext(appInjector('server', provideClient({ baseUrl: '/api/rxgate' }, feature)), injectClient)
    const seen: unknown[] = []
    const subscription = responses$(client, { model: 'm', input: 'hi', stream: true }).subscribe({ next: (v) => seen.push(v), error: (e) => seen.push(e), complete: () => seen.push('complete') })
    await vi.advanceTimersByTimeAsync(3_600_000)
    expect(seen).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
    expect(feature.calls).toEqual([])
    subscription.unsubscribe()
    const refused: unknown[] = []
    responses$(client, { model: '', input: 'hi' }).subscribe({ error: (e: { name: string }) => refused.push(e.name) })
    expect(refused).toEqual(['InvalidRequestError'])
  })

  it('with provideGateway too, in either order, the gateway is over the one client injectClient() gives', () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://app.example' })
    const a = provideClient({ baseUrl: '/api/a' })
    const b = provideGateway({ baseUrl: '/api/b' })
    for (const providers of [[a, b], [b, a]]) {
      const injector = appInjector('browser', ...providers)
      const client = runInInjectionContext(injector, injectClient)
      expect(runInInjectionContext(injector, injectGateway).client).toBe(client)
    }
  })

  it('refuses bad options when the client is first injected, naming the option', () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://app.example' })
    const injector = appInjector('browser', provideClient({ baseUrl: '/api/rxgate', timeoutMs: -1 }))
    expect(() => runInInjectionContext(injector, injectClient)).toThrow(/timeoutMs/)
  })
})
