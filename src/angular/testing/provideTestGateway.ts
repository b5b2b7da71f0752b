import { inject, InjectionToken, makeEnvironmentProviders, type EnvironmentProviders } from '@angular/core'
import { gatewayOf } from '../../gateway.js'
import { createTestGateway, type TestGateway } from '../../testing/createTestGateway.js'
import type { TestGatewayOptions } from '../../testing/types.js'
import { CLIENT, GATEWAY } from '../tokens.js'

/**
 * The {@link TestGateway} behind {@link provideTestGateway}: what it
 * received (`requests`), created (`tasks`, `responses`). Read it with
 * {@link injectTestGateway} or `TestBed.inject(TEST_GATEWAY)`.
 *
 * @example
 * ```ts
 * const { requests } = TestBed.inject(TEST_GATEWAY)
 * ```
 */
export const TEST_GATEWAY = /* @__PURE__ */ new InjectionToken<TestGateway>('rxgate TestGateway')

/**
 * Provides, for `TestBed`, an in-process gateway made by `createTestGateway(options)`
 * (from `rxgate/testing`): `GATEWAY` and `CLIENT` are the facade over its
 * client and that client, so a component that calls `injectGateway()` or
 * `injectClient()` talks to it with no network, and the test reads it with
 * {@link injectTestGateway}. Each injector (each `TestBed` set-up) gets a
 * gateway of its own, with nothing received yet.
 *
 * Time is that of `options.scheduler`: a `TestScheduler` or a
 * `VirtualTimeScheduler` the test flushes, or by default RxJS's
 * `asyncScheduler`, which fake timers drive (`vi.useFakeTimers()` and
 * `vi.advanceTimersByTime(ms)`, or Jest's). Nothing in it needs zone.js:
 * it runs under `provideZonelessChangeDetection()`. Bad options are an
 * `InvalidRequestError` when the gateway is first injected.
 *
 * @example
 * ```ts
 * TestBed.configureTestingModule({
 *   providers: [provideZonelessChangeDetection(), provideTestGateway({ scheduler, respond: () => 'Hello there' })],
 * })
 * ```
 */
export function provideTestGateway(options: TestGatewayOptions = {}): EnvironmentProviders {
  return makeEnvironmentProviders([
    { provide: TEST_GATEWAY, useFactory: () => createTestGateway(options) },
    { provide: GATEWAY, useFactory: () => gatewayOf(inject(TEST_GATEWAY).client) },
    { provide: CLIENT, useFactory: () => inject(GATEWAY).client },
  ])
}

/**
 * The {@link TestGateway} that {@link provideTestGateway} provides; call it
 * where `inject` may be called (`TestBed.runInInjectionContext(injectTestGateway)`).
 *
 * @example
 * ```ts
 * const gateway = TestBed.runInInjectionContext(injectTestGateway)
 * expect(gateway.requests.map((r) => r.path)).toEqual(['/vendors/vendor-a/v1/responses'])
 * ```
 */
export function injectTestGateway(): TestGateway {
  const gateway = inject(TEST_GATEWAY, { optional: true })
  if (!gateway) throw new Error('injectTestGateway(): no test gateway is provided; add provideTestGateway({ scheduler }) to the test’s providers.')
  return gateway
}
