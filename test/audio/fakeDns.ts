import type { LookupAddress } from 'node:dns'

/**
 * A resolver for tests, in place of `dns.lookup` (no real DNS): `localhost`
 * as a hosts file answers it, the names a test adds to `names`, and
 * ENOTFOUND for every other name. `asked` lists each name looked up.
 *
 * Used through `vi.mock('node:dns', …)`, it answers the lookups of rxgate's
 * own code (the checked connection and the check of a caller's fetch).
 */
export const fakeDns = {
  names: new Map<string, string[]>(),
  asked: [] as string[],
}

const HOSTS: Readonly<Record<string, string[]>> = { localhost: ['127.0.0.1', '::1'] }

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** `dns.lookup`'s shape: `(hostname, options, callback)`, with `all` or without. */
export function fakeLookup(hostname: string, options: { all?: boolean } | Callback, callback?: Callback): void {
  const done = (typeof options === 'function' ? options : callback)!
  const all = typeof options === 'object' && options.all === true
  fakeDns.asked.push(hostname)
  const addresses = (fakeDns.names.get(hostname) ?? HOSTS[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  queueMicrotask(() => {
    const [first] = addresses
    if (!first) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), all ? [] : '')
    if (all) done(null, addresses)
    else done(null, first.address, first.family)
  })
}

/** The factory of `vi.mock('node:dns', …)`: the real module with {@link fakeLookup} as its `lookup`. */
export async function mockedDns(real: () => Promise<typeof import('node:dns')>): Promise<typeof import('node:dns')> {
  const dns = await real()
  return { ...dns, default: { ...dns, lookup: fakeLookup }, lookup: fakeLookup } as unknown as typeof import('node:dns')
}
