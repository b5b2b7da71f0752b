import { runInInjectionContext } from '@angular/core'
import { lastValueFrom, map, toArray } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { injectClient } from '../../src/angular/injectClient.js'
import { CLIENT, GATEWAY, provideGateway } from '../../src/angular/provideGateway.js'
import { createGateway, responses$ } from '../../src/index.js'
import { appInjector, recordingFeature } from './helpers.js'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('injectClient', () => {
  it('is the provided gateway’s own client: the standalone functions send through the feature’s transport', async () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://app.example' })
    const feature = recordingFeature()
    const injector = appInjector('browser', provideGateway({ baseUrl: '/api/rxgate' }, feature))
    const client = runInInjectionContext(injector, injectClient)
    expect(client).toBe(injector.get(GATEWAY).client)
    expect(injector.get(CLIENT)).toBe(client)
    const statuses = await lastValueFrom(responses$(client, { model: 'm', input: 'hi' }).pipe(map((r) => r.status), toArray()))
    expect(statuses).toEqual(['completed'])
    expect(feature.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/rxgate/vendors/vendor-a/v1/responses'])
  })

  it('is the client of a gateway a test provides under GATEWAY alone', () => {
    const gateway = createGateway({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' })
    expect(runInInjectionContext(appInjector('browser', { provide: GATEWAY, useValue: gateway }), injectClient)).toBe(gateway.client)
  })

  it('says what to add when nothing is provided', () => {
    expect(() => runInInjectionContext(appInjector('browser'), injectClient)).toThrow(/provideGateway\(\{ baseUrl: '\/api\/rxgate' \}\) to the app's providers \(in a test, provideTestGateway\(\) from rxgate\/angular\/testing\)/)
  })
})
