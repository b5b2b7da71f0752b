import { inject, makeEnvironmentProviders, type EnvironmentProviders } from '@angular/core'
import { gatewayOf, type Gateway, type GatewayOptions } from '../gateway.js'
import { provideClient } from './provideClient.js'
import { CLIENT, GATEWAY, type GatewayFeature } from './tokens.js'

export { CLIENT, GATEWAY, type GatewayFeature } from './tokens.js'

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
 * A component that calls only the standalone functions (`responses$(injectClient(), …)`)
 * needs no gateway: {@link provideClient} provides the client alone, and
 * the app's bundle carries only the functions it calls.
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
    provideClient(options, ...features),
    // The gateway over the provided client: one client (one budget, one set of per-client state),
    // whichever of provideClient and provideGateway an app lists, in whatever order.
    { provide: GATEWAY, useFactory: (): Gateway => gatewayOf(inject(CLIENT)) },
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
