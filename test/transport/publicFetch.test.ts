import { readFileSync } from 'node:fs'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { allowHostsIssue } from '../../src/transport/allowHosts.js'
import { privateRange } from '../../src/transport/publicAddress.js'
import { publicFetch as browserPublicFetch } from '../../src/transport/publicFetch.browser.js'
import { publicFetch, publicLookup } from '../../src/transport/publicFetch.js'
import { fakeDns } from '../audio/fakeDns.js'
import { closedPort, startServer } from '../helpers/server.js'

// No real DNS: names resolve as the test says (localhost as a hosts file does; others ENOTFOUND).
vi.mock('node:dns', async (importOriginal) => (await import('../audio/fakeDns.js')).mockedDns(importOriginal))
afterEach(() => void (fakeDns.names.clear(), (fakeDns.asked.length = 0)))

const OPTIONS = { field: 'audio_url', what: 'text-to-video request' }
const ADVICE = 'rxgate does not fetch private networks unless the host is in allowHosts or allowPrivateNetwork is true'

/** A user fetch that records the URLs it is asked for and answers each with `answer`. */
function spyFetch(answer: (url: string, n: number) => Response = () => new Response('ok')) {
  const asked: { url: string; init: RequestInit }[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    asked.push({ url, init })
    return answer(url, asked.length)
  }) as unknown as typeof globalThis.fetch
  return { fetch, asked }
}

const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } })
const errorOf = (p: Promise<unknown>) => p.then(() => expect.fail('expected a refusal'), (e: unknown) => e as InvalidRequestError)

/** A TCP listener on 127.0.0.1 that only counts connections: proof that nothing reached it. */
async function listener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0
  const server = net.createServer((socket) => (connections++, socket.destroy()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { port: (server.address() as AddressInfo).port, connections: () => connections }
}

describe('privateRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'RFC 1918'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::1', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['::7f00:1', 'outside global unicast'],
    ['fec0::1', 'site-local'],
  ])('%s is %s', (address, range) => {
    expect(privateRange(address)).toBe(range)
  })

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(privateRange(address)).toBeUndefined()
  })
})

describe('publicFetch: addresses written in the URL', () => {
  it.each([
    ['http://127.0.0.1:8080/a.wav', 'loopback'],
    ['http://2130706433/a.wav', 'loopback'],
    ['http://0x7f.1/a.wav', 'loopback'],
    ['http://[::1]:8080/a.wav', 'loopback'],
    ['http://[::ffff:127.0.0.1]/a.wav', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fd00::1]/a.wav', 'unique local'],
    ['http://100.64.1.1/a.wav', 'carrier-grade NAT'],
    ['http://localhost:8080/a.wav', 'loopback'],
    ['http://files.localhost/a.wav', 'loopback'],
  ])('%s is refused before anything is sent', async (url, range) => {
    const spy = spyFetch()
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch })(url))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.issues).toEqual([{ path: 'audio_url', message: `refers to a private address (${range}); ${ADVICE}` }])
    expect(spy.asked).toEqual([])
  })

  it('never shows the query string, which may hold a signature', async () => {
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spyFetch().fetch })('http://10.0.0.1/a.wav?X-Signature=s3cr3t'))
    expect(error.message).not.toContain('s3cr3t')
    expect(error.message).toBe(`Invalid text-to-video request: audio_url: refers to a private address (RFC 1918); ${ADVICE}. Nothing was sent.`)
  })

  it('refuses a scheme other than http(s)', async () => {
    const spy = spyFetch()
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch })('file:///etc/passwd'))
    expect(error.issues[0]!.message).toBe('must be an http:// or https:// URL')
    expect(spy.asked).toEqual([])
  })

  it('lets a public address through', async () => {
    const spy = spyFetch()
    expect(await (await publicFetch({ ...OPTIONS, fetch: spy.fetch })('http://93.184.215.14/a.wav')).text()).toBe('ok')
    expect(spy.asked.map((a) => a.url)).toEqual(['http://93.184.215.14/a.wav'])
  })
})

describe('publicFetch: allowHosts and allowPrivateNetwork', () => {
  const allowed = async (allowHosts: string[], url: string) => {
    const spy = spyFetch()
    const outcome = await publicFetch({ ...OPTIONS, fetch: spy.fetch, allowHosts })(url).then(
      () => 'sent',
      (e: unknown) => (e instanceof InvalidRequestError ? 'refused' : 'failed'),
    )
    expect(spy.asked.length).toBe(outcome === 'sent' ? 1 : 0)
    return outcome
  }

  it('takes a hostname (any port), a host:port or an origin', async () => {
    expect(await allowed(['localhost'], 'http://localhost:9000/a.wav')).toBe('sent')
    expect(await allowed(['LOCALHOST.'], 'https://localhost/a.wav')).toBe('sent')
    expect(await allowed(['127.0.0.1:8080'], 'http://127.0.0.1:8080/a.wav')).toBe('sent')
    expect(await allowed(['127.0.0.1:8080'], 'http://127.0.0.1:8081/a.wav')).toBe('refused')
    expect(await allowed(['127.0.0.1:80'], 'http://127.0.0.1/a.wav')).toBe('sent')
    expect(await allowed(['http://127.0.0.1:8080'], 'http://127.0.0.1:8080/a.wav')).toBe('sent')
    expect(await allowed(['http://127.0.0.1:8080'], 'https://127.0.0.1:8080/a.wav')).toBe('refused')
    expect(await allowed(['https://10.0.0.1'], 'https://10.0.0.1/a.wav')).toBe('sent')
    expect(await allowed(['https://10.0.0.1'], 'https://10.0.0.1:8443/a.wav')).toBe('refused')
    expect(await allowed(['[::1]:8080'], 'http://[::1]:8080/a.wav')).toBe('sent')
    expect(await allowed(['::1'], 'http://[::1]:9000/a.wav')).toBe('sent')
    expect(await allowed(['10.0.0.1'], 'http://10.0.0.2/a.wav')).toBe('refused')
  })

  it('allowPrivateNetwork: true allows every address', async () => {
    const spy = spyFetch()
    await publicFetch({ ...OPTIONS, fetch: spy.fetch, allowPrivateNetwork: true })('http://169.254.169.254/latest/meta-data/')
    expect(spy.asked.map((a) => a.url)).toEqual(['http://169.254.169.254/latest/meta-data/'])
  })

  it('allowHostsIssue names malformed values', () => {
    const issue = (value: unknown) => allowHostsIssue('allowHosts', value)
    expect(issue(['files.internal', '127.0.0.1:8080', 'http://[::1]:3000', '::1', '[::1]:8080'])).toBeUndefined()
    expect(issue('files.internal')).toEqual({ path: 'allowHosts', message: 'must be an array of hostnames, host:port or origins (got a string)' })
    expect(issue(['ok', ''])?.path).toBe('allowHosts[1]')
    expect(issue(['files internal'])?.message).toMatch(/^must be a hostname, a host:port or an origin/)
    for (const bad of ['http://a/path', 'ftp://a', 'a:99999', 'a/b', 'user@a', 3]) expect(issue([bad])?.path).toBe('allowHosts[0]')
  })
})

describe('publicFetch: redirects, hop by hop', () => {
  it('follows up to 5 redirects, and refuses the 6th', async () => {
    const five = spyFetch((_, n) => (n <= 5 ? redirect(`https://cdn.example.com/${n}`) : new Response('end')))
    expect(await (await publicFetch({ ...OPTIONS, fetch: five.fetch })('https://cdn.example.com/0')).text()).toBe('end')
    expect(five.asked.length).toBe(6)
    const six = spyFetch((_, n) => redirect(`https://cdn.example.com/${n}`))
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: six.fetch })('https://cdn.example.com/0'))
    expect(error.issues[0]!.message).toBe('redirects more than 5 times; rxgate follows at most 5 redirects')
    expect(six.asked.length).toBe(6)
    expect(six.asked.every((a) => a.init.redirect === 'manual')).toBe(true)
  })

  it('refuses a redirect to another scheme, or to a private address, without sending it', async () => {
    const toFile = spyFetch(() => redirect('file:///etc/passwd'))
    expect((await errorOf(publicFetch({ ...OPTIONS, fetch: toFile.fetch })('https://cdn.example.com/a'))).issues[0]!.message).toBe(
      'redirects to a file: URL; rxgate follows only http:// and https:// redirects',
    )
    const toMetadata = spyFetch(() => redirect('http://169.254.169.254/latest/meta-data/'))
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: toMetadata.fetch })('https://cdn.example.com/a'))
    expect(error.issues[0]!.message).toBe(`redirects to a private address (link-local); ${ADVICE}`)
    expect(toMetadata.asked.map((a) => a.url)).toEqual(['https://cdn.example.com/a'])
  })

  it('turns a POST into a GET on 303, keeps it on 307, and drops credentials on a change of origin', async () => {
    const spy = spyFetch((_, n) => (n === 1 ? redirect('/next', 307) : n === 2 ? redirect('https://other.example.com/x', 303) : new Response('ok')))
    await publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a', { method: 'POST', body: 'x', headers: { authorization: 'Bearer t', 'content-type': 'text/plain' } })
    const seen = spy.asked.map(({ url, init }) => [url, init.method, init.body, new Headers(init.headers).get('authorization'), new Headers(init.headers).get('content-type')])
    expect(seen).toEqual([
      ['https://cdn.example.com/a', 'POST', 'x', 'Bearer t', 'text/plain'],
      ['https://cdn.example.com/next', 'POST', 'x', 'Bearer t', 'text/plain'],
      ['https://other.example.com/x', 'GET', null, null, null],
    ])
  })

  it('a Location that is not a URL fails as fetch does, and the error does not quote the signed URL', async () => {
    const spy = spyFetch(() => redirect('http://[::1?X-Signature=t0k3n'))
    const error = await publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a.wav?X-Signature=s3cr3t').then(
      () => expect.fail('expected a failure'),
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toBe('fetch failed: redirected (HTTP 302) to a Location that is not a URL')
    expect(inspect(error, { depth: 10, showHidden: true }) + JSON.stringify(error)).not.toMatch(/s3cr3t|t0k3n/)
  })

  it('refuses a URL with a user name or password, at the first hop or a redirect, without quoting it', async () => {
    const first = spyFetch()
    const refused = await errorOf(publicFetch({ ...OPTIONS, fetch: first.fetch })('https://u:pw@cdn.example.com/a.wav?X-Signature=s3cr3t'))
    expect(refused.issues).toEqual([{ path: 'audio_url', message: 'must not hold a user name or password' }])
    expect(first.asked).toEqual([])
    const hop = spyFetch(() => redirect('https://u:pw@cdn.example.com/b.wav?X-Signature=t0k3n'))
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: hop.fetch })('https://cdn.example.com/a.wav'))
    expect(error.issues[0]!.message).toBe('redirects to a URL with a user name or password; rxgate does not follow such redirects')
    expect(hop.asked.map((a) => a.url)).toEqual(['https://cdn.example.com/a.wav'])
    expect(inspect(error, { depth: 10 })).not.toMatch(/pw@|t0k3n/)
  })

  it("returns the 3xx as it is with redirect: 'manual'", async () => {
    const spy = spyFetch(() => redirect('http://127.0.0.1/'))
    expect((await publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a', { redirect: 'manual' })).status).toBe(302)
  })
})

describe("publicFetch with a fetch of the caller's own: names are resolved and checked too (Node)", () => {
  it.each([
    ['files.test', ['10.0.0.5'], 'RFC 1918'],
    ['169.254.169.254.nip.io', ['169.254.169.254'], 'link-local'],
    ['mixed.test', ['93.184.215.14', '::1'], 'loopback'],
  ])('%s, resolving to %j, is refused before the fetch is called', async (host, addresses, range) => {
    fakeDns.names.set(host, addresses)
    const spy = spyFetch()
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch })(`http://${host}/latest/meta-data/`))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.issues).toEqual([{ path: 'audio_url', message: `refers to a private address (${range}); ${ADVICE}` }])
    expect(spy.asked).toEqual([])
    expect(fakeDns.asked).toEqual([host])
  })

  it('a redirect to such a name: refused, the second hop never reaches the fetch', async () => {
    fakeDns.names.set('cdn.example.com', ['93.184.215.14'])
    fakeDns.names.set('files.test', ['10.0.0.5'])
    const spy = spyFetch(() => redirect('http://files.test/admin'))
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a.wav'))
    expect(error.issues[0]!.message).toBe(`redirects to a private address (RFC 1918); ${ADVICE}`)
    expect(spy.asked.map((a) => a.url)).toEqual(['https://cdn.example.com/a.wav'])
  })

  it('a public name, or one that does not resolve here (a proxy may), is passed on to the fetch', async () => {
    fakeDns.names.set('cdn.example.com', ['93.184.215.14', '2606:4700:4700::1111'])
    const spy = spyFetch()
    await publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a.wav')
    await publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://only-the-proxy-knows.internal/a.wav')
    expect(spy.asked.map((a) => a.url)).toEqual(['https://cdn.example.com/a.wav', 'https://only-the-proxy-knows.internal/a.wav'])
  })

  it('an allowed host is not looked up; localhost is refused by name, without a lookup or a fetch', async () => {
    fakeDns.names.set('files.test', ['10.0.0.5'])
    const allowed = spyFetch()
    await publicFetch({ ...OPTIONS, fetch: allowed.fetch, allowHosts: ['files.test'] })('http://files.test/a.wav')
    expect(allowed.asked.length).toBe(1)
    const local = spyFetch()
    expect((await errorOf(publicFetch({ ...OPTIONS, fetch: local.fetch })('http://localhost:8080/a.wav'))).issues[0]!.message).toBe(`refers to a private address (loopback); ${ADVICE}`)
    expect(local.asked).toEqual([])
    expect(fakeDns.asked).toEqual([])
  })

  it('aborted during the lookup: the fetch is not called', async () => {
    fakeDns.names.set('cdn.example.com', ['93.184.215.14'])
    const spy = spyFetch()
    const controller = new AbortController()
    const pending = publicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a.wav', { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    expect(spy.asked).toEqual([])
  })
})

describe('publicFetch: the scheme is checked on every hop, even of an allowed host', () => {
  it.each([
    ['allowPrivateNetwork', { allowPrivateNetwork: true }],
    ['a bare hostname in allowHosts', { allowHosts: ['cdn.example.com'] }],
  ])('with %s, a redirect to file: or data: is refused and never sent', async (_, allow) => {
    for (const location of ['file://cdn.example.com/etc/passwd', 'data:text/plain,secret']) {
      const spy = spyFetch(() => redirect(location))
      const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch, ...allow })('https://cdn.example.com/a'))
      expect(error.issues[0]!.message).toMatch(/^redirects to a (file|data): URL; rxgate follows only http:\/\/ and https:\/\/ redirects$/)
      expect(spy.asked.map((a) => a.url)).toEqual(['https://cdn.example.com/a'])
    }
  })

  it('with allowPrivateNetwork, a file: URL is refused at the first hop too', async () => {
    const spy = spyFetch()
    expect((await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch, allowPrivateNetwork: true })('file:///etc/passwd'))).issues[0]!.message).toBe('must be an http:// or https:// URL')
    expect(spy.asked).toEqual([])
  })
})

describe('publicFetch over real connections (undici, checked lookup)', () => {
  it('an allowed host that redirects to another loopback port: refused, and the second server sees nothing', async () => {
    const internal = await startServer((_req, res) => res.end('internal secret'))
    const allowed = await startServer((_req, res) => res.writeHead(302, { location: `${internal.url}/admin` }).end())
    const error = await errorOf(publicFetch({ ...OPTIONS, allowHosts: [allowed.url] })(`${allowed.url}/a.wav`))
    expect(error.issues).toEqual([{ path: 'audio_url', message: `redirects to a private address (loopback); ${ADVICE}` }])
    expect(allowed.requests.length).toBe(1)
    expect(internal.requests.length).toBe(0)
    expect(error.message).not.toContain('internal secret')
  })

  it('an allowed host is fetched', async () => {
    const host = await startServer((_req, res) => res.end('the file'))
    const res = await publicFetch({ ...OPTIONS, allowHosts: [`127.0.0.1:${host.port}`] })(`${host.url}/a.wav`)
    expect(await res.text()).toBe('the file')
  })

  it('a name that resolves to loopback is refused at the lookup: no connection is made', async () => {
    const open = await listener()
    const error = await errorOf(publicFetch(OPTIONS)(`http://localhost:${open.port}/a.wav`))
    expect(error.issues).toEqual([{ path: 'audio_url', message: `refers to a private address (loopback); ${ADVICE}` }])
    expect(open.connections()).toBe(0)
  })

  it('reads the same for an open port and a closed one', async () => {
    const open = await listener()
    const closed = await closedPort()
    const messages = await Promise.all(
      [`http://127.0.0.1:${open.port}/`, `http://127.0.0.1:${closed}/`, `http://localhost:${open.port}/`, `http://localhost:${closed}/`].map(async (url) => (await errorOf(publicFetch(OPTIONS)(url))).message),
    )
    expect(new Set(messages).size).toBe(1)
    expect(open.connections()).toBe(0)
  })

  it('publicLookup answers in the shape net.connect asks for', async () => {
    const one = await new Promise<unknown[]>((resolve) => publicLookup('localhost', {}, (...args) => resolve(args)))
    expect(one[0]).toMatchObject({ name: 'PrivateAddressError', range: 'loopback' })
  })
})

describe('publicFetch (browser build)', () => {
  it("checks the final URL of the page's own fetch, which follows redirects itself", async () => {
    const original = globalThis.fetch
    const followed = Object.defineProperties(new Response('internal'), { redirected: { value: true }, url: { value: 'http://localhost/admin' } })
    globalThis.fetch = (async () => followed) as typeof globalThis.fetch
    onTestFinished(() => void (globalThis.fetch = original))
    const error = await errorOf(browserPublicFetch(OPTIONS)('https://cdn.example.com/a.wav'))
    expect(error.issues[0]!.message).toBe(`redirects to a private address (loopback); ${ADVICE}`)
  })

  it("gives a fetch of the caller's own redirect: 'follow' (a manual redirect is opaque in a browser), and checks its final URL", async () => {
    const followed = () => Object.defineProperties(new Response('internal'), { redirected: { value: true }, url: { value: 'http://localhost/admin' } })
    const spy = spyFetch(followed)
    const error = await errorOf(browserPublicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a.wav'))
    expect(error.issues[0]!.message).toBe(`redirects to a private address (loopback); ${ADVICE}`)
    expect(spy.asked.map((a) => a.init.redirect)).toEqual(['follow'])
    const ok = spyFetch(() => Object.defineProperties(new Response('the file'), { redirected: { value: true }, url: { value: 'https://files.example.net/a.wav' } }))
    expect(await (await browserPublicFetch({ ...OPTIONS, fetch: ok.fetch })('https://cdn.example.com/a.wav')).text()).toBe('the file')
  })

  it('refuses a final URL of another scheme even with allowPrivateNetwork', async () => {
    const spy = spyFetch(() => Object.defineProperties(new Response('x'), { redirected: { value: true }, url: { value: 'file:///etc/passwd' } }))
    const error = await errorOf(browserPublicFetch({ ...OPTIONS, fetch: spy.fetch, allowPrivateNetwork: true })('https://cdn.example.com/a.wav'))
    expect(error.issues[0]!.message).toBe('redirects to a file: URL; rxgate follows only http:// and https:// redirects')
  })

  it('follows the redirects of a fetch of the caller\'s own hop by hop', async () => {
    const spy = spyFetch(() => redirect('http://localhost:8080/'))
    const error = await errorOf(browserPublicFetch({ ...OPTIONS, fetch: spy.fetch })('https://cdn.example.com/a.wav'))
    expect(error.issues[0]!.message).toBe(`redirects to a private address (loopback); ${ADVICE}`)
    expect(spy.asked.length).toBe(1)
  })

  it("leaves written addresses to the browser's own rules, and carries no address tables", async () => {
    const spy = spyFetch(() => new Response('ok'))
    expect((await browserPublicFetch({ ...OPTIONS, fetch: spy.fetch })('http://192.168.1.1/a.wav')).status).toBe(200)
    for (const file of ['publicFetch.browser.ts', 'publicHops.ts', 'loopbackName.ts', 'allowHosts.ts']) {
      expect(readFileSync(new URL(`../../src/transport/${file}`, import.meta.url), 'utf8')).not.toMatch(/publicAddress|ipaddr/)
    }
  })
})

describe('publicLookup: the lookup of the checked connection', () => {
  const lookup = (hostname: string, options: { all?: boolean }) => new Promise<unknown[]>((resolve) => publicLookup(hostname, options, (...args) => resolve(args)))

  it('answers a public name with its first address, or every address when asked for all', async () => {
    fakeDns.names.set('cdn.example.com', ['93.184.215.14', '2606:4700:4700::1111'])
    expect(await lookup('cdn.example.com', {})).toEqual([null, '93.184.215.14', 4])
    expect(await lookup('cdn.example.com', { all: true })).toEqual([
      null,
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
    ])
  })

  it("passes the resolver's own failure on", async () => {
    const [error] = await lookup('nowhere.test', {})
    expect(error).toMatchObject({ code: 'ENOTFOUND', hostname: 'nowhere.test' })
  })
})

describe("publicFetch with a fetch of the caller's own: what is and is not looked up", () => {
  it('an address written in the URL is judged as written, without a lookup', async () => {
    const spy = spyFetch()
    await publicFetch({ ...OPTIONS, fetch: spy.fetch })('http://93.184.215.14/a.wav')
    await publicFetch({ ...OPTIONS, fetch: spy.fetch })('http://[2606:4700:4700::1111]/a.wav')
    expect(spy.asked.length).toBe(2)
    expect(fakeDns.asked).toEqual([])
  })

  it('an IPv4-translated address (::ffff:0:a.b.c.d) is judged by its IPv4 part', async () => {
    const spy = spyFetch()
    await publicFetch({ ...OPTIONS, fetch: spy.fetch })('http://[::ffff:0:808:808]/a.wav')
    expect(spy.asked.map((a) => a.url)).toEqual(['http://[::ffff:0:808:808]/a.wav'])
    const error = await errorOf(publicFetch({ ...OPTIONS, fetch: spy.fetch })('http://[::ffff:0:7f00:1]/a.wav'))
    expect(error.issues).toEqual([{ path: 'audio_url', message: `refers to a private address (loopback); ${ADVICE}` }])
  })
})

describe('publicFetch over real connections: names and Request bodies', () => {
  it('a name under localhost is judged by the addresses it resolves to, not by its name', async () => {
    fakeDns.names.set('files.localhost', ['10.0.0.5'])
    const error = await errorOf(publicFetch(OPTIONS)('http://files.localhost:8080/a.wav'))
    expect(error.issues).toEqual([{ path: 'audio_url', message: `refers to a private address (RFC 1918); ${ADVICE}` }])
    expect(fakeDns.asked).toEqual(['files.localhost'])
  })

  it('a Request with a body is sent, and sent again on a 307', async () => {
    const host = await startServer((req, res) => (req.path === '/a' ? res.writeHead(307, { location: '/b' }).end() : res.end('done')))
    const res = await publicFetch({ ...OPTIONS, allowHosts: [host.url] })(new Request(`${host.url}/a`, { method: 'POST', body: 'x' }))
    expect(await res.text()).toBe('done')
    expect(host.requests.map((r) => [r.path, r.method, r.body])).toEqual([
      ['/a', 'POST', 'x'],
      ['/b', 'POST', 'x'],
    ])
  })
})
