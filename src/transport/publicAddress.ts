import ipaddr from 'ipaddr.js'
import { namedLoopback } from './loopbackName.js'

// Words for the ranges ipaddr.js names, as the refusal shows them.
const LABELS: Readonly<Record<string, string>> = {
  private: 'RFC 1918',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique local',
  deprecatedSiteLocal: 'site-local',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  global: 'outside global unicast',
}

/** IPv6 global unicast (2000::/3): all that is allocated for the Internet; ipaddr.js calls the rest of its unnamed space 'unicast' too. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3')

/**
 * The named range of a non-public IP address, or undefined for a public
 * one. Public is what ipaddr.js calls `unicast` and nothing else: loopback,
 * RFC 1918, link-local (169.254.169.254, the metadata of every cloud),
 * carrier-grade NAT, unique local, multicast, unspecified, broadcast,
 * documentation and every other reserved range are refused, and so are the
 * anycast services (AS112, AMT), which serve no files. Addresses that carry
 * an IPv4 address are judged by it: IPv4-mapped (`::ffff:127.0.0.1`) and
 * NAT64 (`64:ff9b::a.b.c.d`, used by IPv6-only networks to reach public
 * IPv4 hosts). 6to4 and Teredo are refused outright: the address they
 * embed is not where a connection goes, and file hosts do not use them.
 * An IPv6 address outside 2000::/3 is not routed on the Internet.
 *
 * @example
 * ```ts
 * privateRange('93.184.215.14')        // undefined: public
 * privateRange('169.254.169.254')      // 'link-local' (the metadata of every cloud)
 * privateRange('::ffff:127.0.0.1')     // 'loopback'
 * privateRange('not an address')       // undefined: not an address at all (a hostname is checked by its lookup)
 * ```
 */
export function privateRange(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1')
  if (!ipaddr.isValid(bare)) return undefined
  let ip = ipaddr.parse(bare)
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address()
    else if (v6.range() === 'rfc6052' || v6.range() === 'rfc6145') ip = embeddedIPv4(v6)
    else if (v6.range() === 'unicast' && !v6.match(GLOBAL_UNICAST)) return LABELS.global
  }
  const range = ip.range()
  return range === 'unicast' ? undefined : (LABELS[range] ?? range)
}

/** The IPv4 address in the last 32 bits, where NAT64 (RFC 6052, its /96 prefixes) and RFC 6145 put it. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const [a = 0, b = 0] = ip.parts.slice(6)
  return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff])
}

/**
 * The range of a URL's host where it is written as an address (or is a
 * name that means loopback, `localhost` or `*.localhost`, which resolvers
 * answer without DNS); undefined for other names, which only a lookup can
 * place. `names: false` skips the name rule, where a checked lookup follows.
 *
 * @example
 * ```ts
 * literalRange(new URL('http://[::1]:8080/a.wav'))   // 'loopback'
 * literalRange(new URL('http://2130706433/a.wav'))   // 'loopback' (the URL parser reads 127.0.0.1)
 * literalRange(new URL('https://cdn.example.com/'))  // undefined
 * ```
 */
export function literalRange(url: URL, names = true): string | undefined {
  return (names ? namedLoopback(url) : undefined) ?? privateRange(url.hostname)
}
