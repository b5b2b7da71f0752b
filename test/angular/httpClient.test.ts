import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { createEnvironmentInjector, Injector, PLATFORM_ID, provideZonelessChangeDetection, ɵINJECTOR_SCOPE as INJECTOR_SCOPE, type EnvironmentInjector } from '@angular/core'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { GATEWAY, provideGateway } from '../../src/angular/provideGateway.js'
import { textDeltas } from '../../src/index.js'
import { json, RESPONSES, signal, startProxy, startUpstream } from '../server/helpers.js'

// Angular's HttpClient is published partially compiled: outside an Angular
// build it needs @angular/compiler, which only the example app installs.
const example = new URL('../../examples/angular/', import.meta.url)
const compiler = existsSync(new URL('node_modules/@angular/compiler/package.json', example).pathname)
  ? createRequire(new URL('package.json', example).pathname).resolve('@angular/compiler')
  : undefined
const required = process.env.RXGATE_BROWSER_TESTS === 'required'
if (!compiler && !required) console.warn('test/angular/httpClient.test.ts skipped: run `npm ci` in examples/angular for @angular/compiler (set RXGATE_BROWSER_TESTS=required to fail instead).')

type Http = typeof import('@angular/common/http')
type HttpTesting = typeof import('@angular/common/http/testing')
let http: Http
let testing: HttpTesting
let withHttpClient: typeof import('../../src/angular/withHttpClient.js').withHttpClient

beforeAll(async () => {
  if (!compiler) throw new Error('examples/angular is not installed (npm ci in examples/angular): @angular/compiler is missing')
  await import(pathToFileURL(compiler).href)
  http = await import('@angular/common/http')
  testing = await import('@angular/common/http/testing')
  ;({ withHttpClient } = await import('../../src/angular/withHttpClient.js'))
})

afterEach(() => vi.unstubAllGlobals())

/** A browser app's injector at `origin`, with HttpClient set up by `providers`. */
function browserApp(origin: string, ...providers: Parameters<typeof createEnvironmentInjector>[0]): EnvironmentInjector {
  vi.stubGlobal('document', { cookie: '' })
  vi.stubGlobal('location', { origin })
  // One injector, as bootstrapping a zoneless app makes: the root scope (for
  // `providedIn: 'root'`, which must see HttpClient's providers), the platform, change detection.
  return createEnvironmentInjector(
    [
      { provide: INJECTOR_SCOPE, useValue: 'root' },
      { provide: PLATFORM_ID, useValue: 'browser' },
      provideZonelessChangeDetection(),
      ...providers,
      provideGateway({ baseUrl: `${origin}/api/rxgate` }, withHttpClient()),
    ],
    Injector.NULL as EnvironmentInjector,
  )
}

const delta = (n: number, text: string) =>
  `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":${n},"item_id":"m","output_index":0,"content_index":0,"delta":"${text}"}\n\n`
const completed = (n: number) =>
  `data: {"type":"response.completed","sequence_number":${n},"response":{"id":"r","object":"response","created_at":1,"model":"m","status":"completed"}}\n\n`

describe.skipIf(!compiler && !required)('withHttpClient, with Angular’s real HttpClient', () => {
  it('is the feature named httpClient, whose transport is made in the injection context', () => {
    const feature = withHttpClient()
    expect(feature.kind).toBe('httpClient')
    expect(typeof feature.transport).toBe('function')
  })

  it('sends each call through the app’s interceptors, testable with HttpTestingController', async () => {
    const stamp: import('@angular/common/http').HttpInterceptorFn = (req, next) => next(req.clone({ setHeaders: { 'x-app-session': 'abc' } }))
    const app = browserApp('http://app.example', http.provideHttpClient(http.withInterceptors([stamp])), testing.provideHttpClientTesting())
    const deltas: string[] = []
    let done = false
    app.get(GATEWAY).responses$({ model: 'm', input: 'hi', stream: true }).pipe(textDeltas()).subscribe({ next: (d) => deltas.push(d), complete: () => (done = true) })
    const controller = app.get(testing.HttpTestingController)
    const url = `http://app.example/api/rxgate${RESPONSES}`
    // The client sends once its request is checked and admitted: a moment after subscribing.
    let found: import('@angular/common/http/testing').TestRequest | undefined
    await expect.poll(() => (found ??= controller.match(url)[0])).toBeDefined()
    const req = found!
    expect(req.request.method).toBe('POST')
    expect(req.request.headers.get('x-app-session')).toBe('abc')
    expect(req.request.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/)
    expect(req.request.headers.has('authorization')).toBe(false)
    req.event(new http.HttpHeaderResponse({ status: 200, headers: new http.HttpHeaders({ 'content-type': 'text/event-stream' }) }))
    req.event({ type: http.HttpEventType.DownloadProgress, loaded: 1, partialText: delta(1, 'Hel') })
    await expect.poll(() => deltas).toEqual(['Hel'])
    req.flush(delta(1, 'Hel') + delta(2, 'lo') + completed(3))
    await expect.poll(() => done).toBe(true)
    expect(deltas).toEqual(['Hel', 'lo'])
    controller.verify()
  })

  it('streams through the fetch backend: the first event arrives while the gateway is still writing', async () => {
    const more = signal()
    const upstream = await startUpstream(async (seen, res) => {
      if (seen.method !== 'POST') return json(res, 404, {})
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(delta(1, 'first'))
      await more.promise
      res.end(delta(2, ' second') + completed(3))
    })
    const proxy = await startProxy({ baseUrl: upstream.url })
    const app = browserApp(proxy.url, http.provideHttpClient(http.withFetch()))
    const deltas: string[] = []
    let done = false
    app.get(GATEWAY).responses$({ model: 'm', input: 'hi', stream: true }).pipe(textDeltas()).subscribe({ next: (d) => deltas.push(d), complete: () => (done = true) })
    await expect.poll(() => deltas).toEqual(['first'])
    more.resolve()
    await expect.poll(() => done).toBe(true)
    expect(deltas).toEqual(['first', ' second'])
  })

  it('aborts the fetch when the call is unsubscribed mid-stream', async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(delta(1, 'first')) // and never ends
    })
    const proxy = await startProxy({ baseUrl: upstream.url })
    const app = browserApp(proxy.url, http.provideHttpClient(http.withFetch()))
    const deltas: string[] = []
    const subscription = app.get(GATEWAY).responses$({ model: 'm', input: 'hi', stream: true }).pipe(textDeltas()).subscribe((d) => deltas.push(d))
    await expect.poll(() => deltas).toEqual(['first'])
    subscription.unsubscribe()
    expect(await upstream.requests[0]!.closed).toBe(true)
  })
})
