/**
 * The range a host NAME places a URL in without any lookup: `localhost` and
 * `*.localhost` are loopback (RFC 6761), answered by resolvers without DNS.
 * Kept apart from the address tables so that the browser build,
 * which knows only this rule, carries none of them.
 *
 * @example
 * ```ts
 * namedLoopback(new URL('http://app.localhost:3000/')) // 'loopback'
 * namedLoopback(new URL('http://LOCALHOST./'))         // 'loopback'
 * namedLoopback(new URL('https://cdn.example.com/'))   // undefined
 * ```
 */
export function namedLoopback(url: URL): string | undefined {
  return /(^|\.)localhost\.?$/i.test(url.hostname) ? 'loopback' : undefined
}

/**
 * Whether a key sent to `url` stays on this machine, for the rule that a key
 * never crosses the network in clear text: `https:`, or `http:` to
 * `localhost`, an address in 127.0.0.0/8 or `[::1]`. Stricter than
 * {@link namedLoopback}: a name under `localhost` (`app.localhost`) may be
 * sent to DNS by the C library's resolver, and answered from afar.
 *
 * @example
 * ```ts
 * keyStaysLocal(new URL('http://127.0.0.1:8787/')) // true
 * keyStaysLocal(new URL('http://gateway.internal/')) // false
 * keyStaysLocal(new URL('https://gateway.example/')) // true
 * ```
 */
export function keyStaysLocal(url: URL): boolean {
  if (url.protocol !== 'http:') return true
  const { hostname } = url
  return hostname === 'localhost' || hostname === 'localhost.' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

/**
 * Why a `baseUrl` of plain `http://` to `hostname` is refused with a key,
 * and what to pass instead: the one message of `createClient` and
 * `createGatewayHandler`.
 *
 * @example
 * ```ts
 * clearTextKeyMessage('gateway.internal') // 'is http:// to gateway.internal, not this machine: …'
 * ```
 */
export function clearTextKeyMessage(hostname: string): string {
  return `is http:// to ${hostname}, not this machine: apiKey would cross the network in clear text; use https://, or pass allowInsecureHttp: true to send it anyway`
}
