import { inject, InjectionToken, PLATFORM_ID } from '@angular/core'
import type { Client, ClientOptions } from '../client.js'
import type { Gateway } from '../gateway.js'
import type { Transport } from '../transport/types.js'
import { serverRendering } from './serverRendering.js'

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
 * The app's {@link Client}, for the standalone functions
 * (`responses$(client, …)`, `textToVideo$(client, …)`): the one
 * `provideClient` made, or the one under the provided gateway
 * (`injectGateway().client`). `provideClient`, `provideGateway` and
 * `provideTestGateway` (from `rxgate/angular/testing`) provide it.
 *
 * @example
 * ```ts
 * const client = inject(CLIENT)
 * ```
 */
export const CLIENT = /* @__PURE__ */ new InjectionToken<Client>('rxgate Client')

/**
 * The client options an app's providers build with, in an injection
 * context: `options` (or what the function returns), with the transport of
 * the first feature that has one; during server-side rendering, options
 * under which nothing is sent (see `serverRendering`), features unused.
 */
export function appClientOptions(options: ClientOptions | (() => ClientOptions), features: readonly GatewayFeature[]): ClientOptions {
  const settings = typeof options === 'function' ? options() : options
  if (inject(PLATFORM_ID) === 'server') return serverRendering(settings)
  const transport = features.find((feature) => feature.transport)?.transport?.()
  return transport ? { ...settings, transport } : settings
}
