/**
 * The gateway as an Angular provider: {@link provideGateway}, with
 * {@link injectGateway} (the facade) and {@link injectClient} (the client,
 * for the standalone functions), {@link provideClient} (the client alone,
 * for an app that calls only the standalone functions), and
 * {@link withHttpClient} to send through Angular's `HttpClient`. Everything in `rxgate` is exported here too, in
 * its `fetch` flavour, so an Angular app imports from this one entry.
 *
 * @example
 * ```ts
 * import { provideGateway } from 'rxgate/angular'
 *
 * bootstrapApplication(App, { providers: [provideGateway({ baseUrl: '/api/rxgate' })] })
 * ```
 *
 * @module rxgate/angular
 */
// rxgate/angular: the gateway as an Angular provider. Angular is an optional
// peer of rxgate: only apps that import this entry need it.
export { CLIENT, GATEWAY, type GatewayFeature } from './tokens.js'
export { provideGateway, injectGateway } from './provideGateway.js'
export { provideClient } from './provideClient.js'
export { injectClient } from './injectClient.js'
export { withHttpClient } from './withHttpClient.js'
export { httpClientTransport } from './httpClientTransport.js'
// All of rxgate as well, in its fetch flavour (which runs in Node too): an
// Angular app imports from this one entry, and its server-rendering build
// bundles no undici (a CommonJS package Angular's builder warns about).
export * from '../index.js'
