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
