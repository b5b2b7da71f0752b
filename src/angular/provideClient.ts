import { makeEnvironmentProviders, type EnvironmentProviders } from '@angular/core'
import { createClient, type Client, type ClientOptions } from '../client.js'
import { appClientOptions, CLIENT, type GatewayFeature } from './tokens.js'

/**
 * Provides the app's {@link Client} under {@link CLIENT}, for components that
 * call the standalone functions (`responses$(injectClient(), …)`,
 * `textToVideo$(injectClient(), …)`): no gateway facade is made, so the
 * app's bundle carries only the functions its components call. Options and
 * features are those of {@link provideGateway}, and so is server-side
 * rendering: there the client checks each call's input and sends nothing.
 *
 * @example
 * ```ts
 * // app.config.ts
 * export const appConfig: ApplicationConfig = {
 *   providers: [provideZonelessChangeDetection(), provideClient({ baseUrl: '/api/rxgate' })],
 * }
 * ```
 */
export function provideClient(options: ClientOptions | (() => ClientOptions), ...features: GatewayFeature[]): EnvironmentProviders {
  return makeEnvironmentProviders([{ provide: CLIENT, useFactory: (): Client => createClient(appClientOptions(options, features)) }])
}
