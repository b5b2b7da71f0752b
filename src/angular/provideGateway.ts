import { inject, InjectionToken, makeEnvironmentProviders, PLATFORM_ID, type EnvironmentProviders } from '@angular/core'
import type { Client } from '../client.js'
import { createGateway, type Gateway, type GatewayOptions } from '../gateway.js'
import type { Transport } from '../transport/types.js'
import { serverGateway } from './serverGateway.js'

/** An option of {@link provideGateway}, such as {@link withHttpClient}. */
export interface GatewayFeature {
  /** What the feature changes, for messages. */
  readonly kind: string
  /** Makes the transport of the browser's client; run in an injection context. */
  readonly transport?: () => Transport
}

/**
 * The app's {@link Gateway}, as {@link provideGateway} made it. Inject it
 * with {@link injectGateway} (or `inject(GATEWAY)`). In a test,
 * `provideTestGateway()` from `rxgate/angular/testing` provides one on an
 * in-process gateway; or provide a gateway of your own under it.
 *
 * @example
 * ```ts
 * // A key in a page (jsdom too) is refused unless allowed: fine for a test against the simulator.
 * TestBed.configureTestingModule({ providers: [{ provide: GATEWAY, useValue: createGateway({ baseUrl: sim.url, apiKey: sim.apiKey, dangerouslyAllowBrowser: true }) }] })
 * ```
 */
export const GATEWAY = /* @__PURE__ */ new InjectionToken<Gateway>('rxgate Gateway')

/**
 * The app's {@link Client}: the one under the provided gateway
 * (`injectGateway().client`), for the standalone functions
 * (`responses$(client, …)`, `textToVideo$(client, …)`). `provideGateway`
 * and `provideTestGateway` (from `rxgate/angular/testing`) provide it.
 *
 * @example
 * ```ts
 * const client = inject(CLIENT)
 * ```
 */
export const CLIENT = /* @__PURE__ */ new InjectionToken<Client>('rxgate Client')

/**
 * Provides the app's gateway under {@link GATEWAY}, and its client under
 * {@link CLIENT} (see `injectClient`). In the browser it calls the app's
 * own server (`baseUrl: '/api/rxgate'`, served by `rxgate/server`, which
 * holds the key), so the browser bundle holds no key. Options are those of
 * `createGateway`, or a function returning them that runs in an injection
 * context (to read tokens of the app).
 *
 * Under server-side rendering no call is sent: each one subscribes, checks
 * its input and then waits, emitting nothing, starting no timer and holding
 * up no render, until the page is done. The browser then makes it once,
 * when the hydrated component subscribes. A page view therefore sends each
 * (paid) call exactly once, from the browser.
 *
 * @example
 * ```ts
 * // app.config.ts
 * export const appConfig: ApplicationConfig = {
 *   providers: [provideZonelessChangeDetection(), provideGateway({ baseUrl: '/api/rxgate' })],
 * }
 * ```
 */
export function provideGateway(options: GatewayOptions | (() => GatewayOptions), ...features: GatewayFeature[]): EnvironmentProviders {
  return makeEnvironmentProviders([
    {
      provide: GATEWAY,
      useFactory: (): Gateway => {
        const settings = typeof options === 'function' ? options() : options
        if (inject(PLATFORM_ID) === 'server') return serverGateway(settings)
        const transport = features.find((feature) => feature.transport)?.transport?.()
        return createGateway(transport ? { ...settings, transport } : settings)
      },
    },
    // The gateway's own client, for the standalone functions: one client, one set of per-client state.
    { provide: CLIENT, useFactory: () => inject(GATEWAY).client },
  ])
}

/**
 * The app's {@link Gateway}; call it where `inject` may be called (a field
 * initialiser, a constructor, a factory).
 *
 * @example
 * ```ts
 * @Component({ selector: 'app-haiku', template: '{{ text$ | async }}', imports: [AsyncPipe] })
 * export class Haiku {
 *   readonly text$ = injectGateway().responses$({ model: 'gpt-4.1-mini', input: 'A haiku', stream: true }).pipe(outputText())
 * }
 * ```
 */
export function injectGateway(): Gateway {
  const gateway = inject(GATEWAY, { optional: true })
  if (!gateway) throw new Error("injectGateway(): no gateway is provided; add provideGateway({ baseUrl: '/api/rxgate' }) to the app's providers (in a test, provide one under GATEWAY).")
  return gateway
}
