import { inject } from '@angular/core'
import type { Client } from '../client.js'
import { CLIENT, GATEWAY } from './tokens.js'

/**
 * The app's {@link Client}, for a component that calls the standalone
 * functions rather than the gateway's methods; call it where `inject` may be
 * called (a field initialiser, a constructor, a factory). During server-side
 * rendering it is the client of the gateway that sends nothing, as with
 * `injectGateway()`.
 *
 * @example
 * ```ts
 * const Haiku = Component({ selector: 'app-haiku', template: '{{ text$ | async }}', imports: [AsyncPipe] })(
 *   class {
 *     readonly text$ = responses$(injectClient(), { model: 'gpt-4.1-mini', input: 'A haiku', stream: true }).pipe(outputText())
 *   },
 * )
 * ```
 */
export function injectClient(): Client {
  // A test may provide only GATEWAY (a gateway of its own): its client is the one.
  const client = inject(CLIENT, { optional: true }) ?? inject(GATEWAY, { optional: true })?.client
  if (!client) throw new Error("injectClient(): no client is provided; add provideClient({ baseUrl: '/api/rxgate' }) or provideGateway({ baseUrl: '/api/rxgate' }) to the app's providers (in a test, provideTestGateway() from rxgate/angular/testing).")
  return client
}
