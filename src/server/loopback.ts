import { Refusal } from './reply.js'

/**
 * Whether `hostname` (as a `URL` gives it: lower case, IPv4 written out, IPv6
 * in brackets) names this machine: `localhost` or a name under it, an
 * address in 127.0.0.0/8, or `[::1]`. Such a name is resolved on the machine
 * itself, so no page elsewhere can point it at the server.
 *
 * @example
 * ```ts
 * isLoopbackHostname('127.0.0.1')  // true
 * isLoopbackHostname('app.localhost') // true
 * isLoopbackHostname('evil.test')  // false, whatever it resolves to
 * ```
 */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

/**
 * Refuses a call to a relay open to every caller (`allowUnauthenticated:
 * true`) unless it was made to a loopback name and, when it says where it
 * comes from (`Origin`), from a loopback page. Such a relay counts on being
 * reachable from this machine only; a page on another site whose name is
 * made to resolve to 127.0.0.1 (DNS rebinding) reaches it "same-origin",
 * but its requests still carry that site's name in `Host` and `Origin`.
 * Throws a 403 {@link Refusal}, `host_not_allowed`.
 *
 * @example
 * ```ts
 * if (!settings.authorize) checkLoopbackCaller(request, new URL(request.url))
 * ```
 */
export function checkLoopbackCaller(request: Request, url: URL): void {
  if (!isLoopbackHostname(url.hostname)) {
    throw new Refusal(403, 'host_not_allowed', `This server lets callers through without authorize only at a loopback address (localhost, 127.0.0.1, [::1]), not at ${JSON.stringify(url.host)}.`)
  }
  const origin = request.headers.get('origin')
  if (origin !== null && !isLoopbackOrigin(origin)) {
    throw new Refusal(403, 'host_not_allowed', `This server lets callers through without authorize only from a loopback page (localhost, 127.0.0.1, [::1]), not from ${JSON.stringify(origin)}.`)
  }
}

/** `http://` or `https://` at a loopback name; `null` (a sandboxed or file page) and anything else are not. */
function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false
  const url = new URL(origin)
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHostname(url.hostname)
}
