import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { createEnvironmentInjector, inject, Injector, PLATFORM_ID, provideZonelessChangeDetection, TransferState, ɵINJECTOR_SCOPE as INJECTOR_SCOPE, type EnvironmentInjector } from '@angular/core'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { httpClientTransport } from '../../src/angular/httpClientTransport.js'

// Angular's HttpClient is published partially compiled: outside an Angular
// build it needs @angular/compiler, which only the example app installs.
const example = new URL('../../examples/angular/', import.meta.url)
const compiler = existsSync(new URL('node_modules/@angular/compiler/package.json', example).pathname)
  ? createRequire(new URL('package.json', example).pathname).resolve('@angular/compiler')
  : undefined
const required = process.env.RXGATE_BROWSER_TESTS === 'required'
if (!compiler && !required) console.warn('test/angular/transferState.test.ts skipped: run `npm ci` in examples/angular for @angular/compiler (set RXGATE_BROWSER_TESTS=required to fail instead).')

let http: typeof import('@angular/common/http')
let testing: typeof import('@angular/common/http/testing')

beforeAll(async () => {
  if (!compiler) throw new Error('examples/angular is not installed (npm ci in examples/angular): @angular/compiler is missing')
  await import(pathToFileURL(compiler).href)
  http = await import('@angular/common/http')
  testing = await import('@angular/common/http/testing')
})

afterEach(() => vi.unstubAllGlobals())

const URL_OF_TASK = 'http://app.example/api/rxgate/v1/tasks/0b6ea0f5'
const REPLY = '{"id":"0b6ea0f5","status":"completed","urls":["https://cdn.example/v.mp4?sig=signed-for-one-viewer"]}'

/**
 * An app on `platform` with HttpClient's transfer cache, as `provideClientHydration()` sets it up
 * (`ngServerMode` is what Angular's server build defines), sharing `state`: what the server's page
 * carries to the browser in its `ng-state` script.
 */
function app(platform: 'server' | 'browser', state: TransferState): EnvironmentInjector {
  if (platform === 'server') vi.stubGlobal('ngServerMode', true)
  return createEnvironmentInjector(
    [
      { provide: INJECTOR_SCOPE, useValue: 'root' },
      { provide: PLATFORM_ID, useValue: platform },
      { provide: TransferState, useValue: state },
      provideZonelessChangeDetection(),
      http.provideHttpClient(),
      testing.provideHttpClientTesting(),
      http.ɵwithHttpTransferCache({}),
    ],
    Injector.NULL as EnvironmentInjector,
  )
}

const get = (injector: EnvironmentInjector) =>
  injector.runInContext(() => httpClientTransport(inject(http.HttpClient)))({ method: 'GET', url: URL_OF_TASK, headers: { accept: 'application/json' }, signal: new AbortController().signal })

describe.skipIf(!compiler && !required)('httpClientTransport and the transfer cache of a server-rendered page', () => {
  it('a gateway reply read during server rendering is not put in TransferState (the page’s HTML)', async () => {
    const state = new TransferState()
    const server = app('server', state)
    const pending = get(server)
    server.get(testing.HttpTestingController).expectOne(URL_OF_TASK).flush(REPLY)
    expect(await (await pending).text()).toBe(REPLY)
    expect(state.toJson()).not.toContain('signed-for-one-viewer')
    expect(state.isEmpty).toBe(true)
  })

  it('in the browser, a reply the page carried for the same GET is not replayed: the request is sent', async () => {
    const state = new TransferState()
    // What the server's page holds for this GET: an old status, cached by the app's own HttpClient call.
    const server = app('server', state)
    server.runInContext(() => inject(http.HttpClient).get(URL_OF_TASK, { responseType: 'text' }).subscribe())
    server.get(testing.HttpTestingController).expectOne(URL_OF_TASK).flush('{"id":"0b6ea0f5","status":"processing"}')
    expect(state.isEmpty).toBe(false)
    vi.unstubAllGlobals()

    const browser = app('browser', state)
    const pending = get(browser)
    browser.get(testing.HttpTestingController).expectOne(URL_OF_TASK).flush(REPLY)
    expect(await (await pending).text()).toBe(REPLY)
  })
})
