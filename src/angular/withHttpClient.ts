import { HttpClient } from '@angular/common/http'
import { inject } from '@angular/core'
import { httpClientTransport } from './httpClientTransport.js'
import type { GatewayFeature } from './tokens.js'

/**
 * Sends the gateway's calls through the app's `HttpClient`: interceptors
 * (auth headers, logging), `HttpTestingController` in tests and Angular's
 * request tracking apply to them. Streams arrive through HttpClient's
 * progress events; provide `HttpClient` with `withFetch()` so each chunk is
 * passed on as it arrives.
 *
 * @example
 * ```ts
 * providers: [
 *   provideHttpClient(withFetch(), withInterceptors([csrfInterceptor])),
 *   provideGateway({ baseUrl: '/api/rxgate' }, withHttpClient()),
 * ]
 * ```
 */
export function withHttpClient(): GatewayFeature {
  return { kind: 'httpClient', transport: () => httpClientTransport(inject(HttpClient)) }
}
