import type { RequestIssue } from '../errors/issues.js'

/** Where rxgate may fetch private addresses; shared by every option that reaches URLs rxgate did not choose. */
export interface PublicNetworkOptions {
  /**
   * Hosts reachable even at private addresses: a hostname (`files.internal`,
   * any port), a `host:port` (`127.0.0.1:8080`, `[::1]:8080`), or an origin
   * (`http://127.0.0.1:8080`: that scheme, host and port only).
   *
   * @defaultValue `[]`
   */
  readonly allowHosts?: readonly string[]
  /** Every address allowed, private ones included (for development). @defaultValue `false` */
  readonly allowPrivateNetwork?: boolean
}

/** One `allowHosts` entry, read: the hostname as a URL spells it (lower case, IPv6 in brackets), and the port and scheme when given. */
interface AllowedHost {
  readonly hostname: string
  readonly port?: string
  readonly protocol?: string
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' }

/**
 * What is wrong with an `allowHosts` value at `path`, or undefined: it must
 * be an array of non-empty strings without whitespace or control characters, each a hostname, a
 * `host:port` or an origin.
 *
 * @example
 * ```ts
 * allowHostsIssue('allowHosts', ['files.internal', 'http://127.0.0.1:8080']) // undefined
 * allowHostsIssue('allowHosts', ['files internal'])
 * // { path: 'allowHosts[0]', message: 'must be a hostname, a host:port or an origin such as http://127.0.0.1:8080, without whitespace or control characters (got "files internal")' }
 * ```
 */
export function allowHostsIssue(path: string, value: unknown): { path: string; message: string } | undefined {
  if (!Array.isArray(value)) return { path, message: notHostList(value) }
  const bad = value.findIndex((entry) => !isHostEntry(entry))
  return bad < 0 ? undefined : { path: `${path}[${bad}]`, message: notHostEntry(value[bad]) }
}

/** Whether `entry` can be an `allowHosts` entry: a hostname, a `host:port` or an origin, without whitespace or control characters. */
export function isHostEntry(entry: unknown): entry is string {
  return typeof entry === 'string' && readEntry(entry) !== undefined
}

/** The refusal of an `allowHosts` that is not an array. */
export const notHostList = (value: unknown): string => `must be an array of hostnames, host:port or origins (got ${value === null ? 'null' : `a ${typeof value}`})`

/** The refusal of an `allowHosts` entry that {@link isHostEntry} does not take. */
export const notHostEntry = (entry: unknown): string => `must be a hostname, a host:port or an origin such as http://127.0.0.1:8080, without whitespace or control characters (got ${JSON.stringify(entry)})`

/**
 * What is wrong with the {@link PublicNetworkOptions} of an options object
 * at `path` ('' for top-level options): `allowHosts` as
 * {@link allowHostsIssue} says, and an `allowPrivateNetwork` that is not a
 * boolean (a string "false" from an environment variable would otherwise
 * read as true). Undefined values are the defaults. Every option that
 * carries them checks them here, so that each refuses the same values with
 * the same words.
 *
 * @example
 * ```ts
 * publicNetworkIssues('checkAudio', { allowPrivateNetwork: 'false' })
 * // [{ path: 'checkAudio.allowPrivateNetwork', message: 'must be true or false (got string)' }]
 * publicNetworkIssues('', { allowHosts: ['files.internal'], allowPrivateNetwork: false }) // []
 * ```
 */
export function publicNetworkIssues(path: string, options: { readonly allowHosts?: unknown; readonly allowPrivateNetwork?: unknown }): RequestIssue[] {
  const at = (name: string) => (path ? `${path}.${name}` : name)
  const issues: RequestIssue[] = []
  const hosts = options.allowHosts === undefined ? undefined : allowHostsIssue(at('allowHosts'), options.allowHosts)
  if (hosts) issues.push(hosts)
  const open = options.allowPrivateNetwork
  if (open !== undefined && typeof open !== 'boolean') issues.push({ path: at('allowPrivateNetwork'), message: `must be true or false (got ${open === null ? 'null' : typeof open})` })
  return issues
}

/**
 * Whether `url` may be fetched without the address checks: its host is in
 * `allowHosts`, or `allowPrivateNetwork` is true.
 *
 * @example
 * ```ts
 * isAllowedHost(new URL('http://127.0.0.1:8080/a.wav'), { allowHosts: ['127.0.0.1:8080'] }) // true
 * isAllowedHost(new URL('http://127.0.0.1:9090/a.wav'), { allowHosts: ['127.0.0.1:8080'] }) // false: another port
 * ```
 */
export function isAllowedHost(url: URL, options: PublicNetworkOptions): boolean {
  if (options.allowPrivateNetwork === true) return true
  const port = url.port || DEFAULT_PORTS[url.protocol]
  return (options.allowHosts ?? []).some((entry) => {
    const allowed = readEntry(entry)
    if (!allowed || allowed.hostname !== trimDot(url.hostname)) return false
    return (allowed.port === undefined || allowed.port === port) && (allowed.protocol === undefined || allowed.protocol === url.protocol)
  })
}

/** Reads an entry through the URL parser, so that it is spelled as the URLs it is compared with (`LOCALHOST.` and `localhost` alike, `[::1]` for `::1`). */
function readEntry(entry: string): AllowedHost | undefined {
  // Whitespace and control characters are refused, not left to the URL parser, which drops some unseen.
  if (!/^[^\s\p{Cc}]+$/u.test(entry)) return undefined
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
      const url = new URL(entry)
      if (!DEFAULT_PORTS[url.protocol] || url.pathname !== '/' || url.search || url.hash || url.username || url.password) return undefined
      return { hostname: trimDot(url.hostname), port: url.port || DEFAULT_PORTS[url.protocol], protocol: url.protocol }
    }
    // A bare IPv6 address has colons of its own: bracket it before the URL parser sees it. One closing `/` is a host's too.
    const bare = entry.endsWith('/') ? entry.slice(0, -1) : entry
    const spelled = /^[0-9a-f:.]*:[0-9a-f:.]*:[0-9a-f:.]*$/i.test(bare) ? `[${bare}]` : bare
    const port = /:(\d{1,5})$/.exec(spelled)?.[1]
    const host = port === undefined ? spelled : spelled.slice(0, -port.length - 1)
    // Only a host: the URL parser would read, and drop unseen, a password, an empty port, a fragment or a path of dots around one.
    if (!/^(\[[0-9a-f:.]+\]|[^:/?#@[\]\\]+)$/i.test(host) || Number(port) > 65_535) return undefined
    return { hostname: trimDot(new URL(`http://${host}`).hostname), ...(port === undefined ? {} : { port: String(Number(port)) }) }
  } catch {
    return undefined
  }
}

const trimDot = (hostname: string): string => hostname.replace(/\.$/, '')
