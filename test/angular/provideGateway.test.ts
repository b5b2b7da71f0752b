import { createEnvironmentInjector, inject, InjectionToken, runInInjectionContext } from '@angular/core'
import { lastValueFrom } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { GATEWAY, injectGateway, provideGateway } from '../../src/angular/provideGateway.js'
import { isInvalidRequestError } from '../../src/index.js'
import { appInjector, recordingFeature } from './helpers.js'

/** A browser page at http://app.example, as far as createClient looks. */
function inBrowserPage(): void {
  vi.stubGlobal('document', {})
  vi.stubGlobal('location', { origin: 'http://app.example' })
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('provideGateway', () => {
  it('gives the browser a gateway on the app’s own server, through the feature’s transport', async () => {
    inBrowserPage()
    const feature = recordingFeature()
    const injector = appInjector('browser', provideGateway({ baseUrl: '/api/rxgate' }, feature))
    const gateway = runInInjectionContext(injector, injectGateway)
    expect(injector.get(GATEWAY)).toBe(gateway)
    await lastValueFrom(gateway.responses$({ model: 'm', input: 'hi', stream: true }))
    expect(feature.calls[0]).toMatchObject({ method: 'POST', url: '/api/rxgate/vendors/vendor-a/v1/responses' })
    expect(feature.calls[0]!.headers.authorization).toBeUndefined()
  })

  it('reads options from a function run in the injection context', () => {
    inBrowserPage()
    const BASE = new InjectionToken<string>('base')
    const injector = createEnvironmentInjector(
      [{ provide: BASE, useValue: '/gw' }, provideGateway(() => ({ baseUrl: inject(BASE) }))],
      appInjector('browser'),
    )
    expect(injector.get(GATEWAY).client.baseUrl).toBe('/gw')
  })

  it('refuses a key in browser code, as createClient does', () => {
    inBrowserPage()
    const injector = appInjector('browser', provideGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk-do-not-ship-me' }))
    expect(() => injector.get(GATEWAY)).toThrow(/refused in browser code/)
  })

  it('sends nothing and starts no timer while rendering on the server, yet checks inputs', async () => {
    vi.useFakeTimers()
    const feature = recordingFeature()
    const gateway = appInjector('server', provideGateway({ baseUrl: '/api/rxgate' }, feature)).get(GATEWAY)
    const seen: unknown[] = []
    const subscriptions = [
      gateway.responses$({ model: 'm', input: 'hi', stream: true }).subscribe({ next: (v) => seen.push(v), error: (e) => seen.push(e), complete: () => seen.push('complete') }),
      gateway.textToVideo$({ prompt: 'A kite' }).subscribe({ next: (v) => seen.push(v), error: (e) => seen.push(e), complete: () => seen.push('complete') }),
    ]
    await vi.advanceTimersByTimeAsync(3_600_000)
    expect(seen).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
    expect(feature.calls).toEqual([])
    for (const s of subscriptions) s.unsubscribe()
    const invalid = await lastValueFrom(gateway.responses$({ model: 'm', temperature: 9 })).catch((e: unknown) => e)
    expect(isInvalidRequestError(invalid)).toBe(true)
  })

  it('says what to add when no gateway is provided', () => {
    expect(() => runInInjectionContext(appInjector('browser'), injectGateway)).toThrow(/provideGateway\(\{ baseUrl: '\/api\/rxgate' \}\) to the app's providers \(in a test, provide one under GATEWAY\)/)
  })
})

