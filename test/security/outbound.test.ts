import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { firstValueFrom } from 'rxjs'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { checkAudio$ } from '../../src/audio/checkAudio$.js'
import type { AudioFetch } from '../../src/audio/audioHttp.js'
import { createClient, type ClientOptions } from '../../src/client.js'
import { download$ } from '../../src/download/download$.js'
import { isInvalidRequestError, type InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import type { Simulator } from '../../src/sim/index.js'
import { textToVideo$ } from '../../src/tasks$.js'
import { audioHost } from '../audio/audioHost.js'
import { fakeDns } from '../audio/fakeDns.js'
import { toneWav } from '../audio/fixtures.js'
import { errorOf, FAST_TASK_POLL, FROZEN, simulator } from '../e2e/helpers.js'
import { closedPort, startServer } from '../helpers/server.js'

// Requests to URLs rxgate did not choose: a custom `audio_url` is read by the
// client before the task is created. A URL that points inside the network
// (loopback, cloud metadata, a redirect there) must reach nothing, and the
// error must not tell what is there.

// No real DNS: names resolve as a test says (localhost as a hosts file does; others ENOTFOUND).
vi.mock('node:dns', async (importOriginal) => (await import('../audio/fakeDns.js')).mockedDns(importOriginal))
afterEach(() => void (fakeDns.names.clear(), (fakeDns.asked.length = 0)))

const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
const creations = (sim: Simulator) => sim.requests.filter((r) => r.method === 'POST' && r.path === T2V)
const ADVICE = 'rxgate does not fetch private networks unless the host is in allowHosts or allowPrivateNetwork is true'

const clientOf = (sim: Simulator, options: Partial<ClientOptions> = {}) => createClient({ baseUrl: sim.url, apiKey: sim.apiKey, taskPoll: FAST_TASK_POLL, ...options })

/** The one issue of a refusal, at audio_url. */
function refusalOf(error: unknown): string {
  expect(isInvalidRequestError(error)).toBe(true)
  const { issues } = error as { issues: { path: string; message: string }[] }
  expect(issues.map((i) => i.path)).toEqual(['audio_url'])
  return issues[0]!.message
}

/** An internal service on 127.0.0.1 that would answer with secrets, and counts every connection made to it. */
async function internalService(): Promise<{ port: number; url: string; connections: () => number }> {
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 27\r\nconnection: close\r\n\r\nRIFF-internal-admin-secrets')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as AddressInfo
  return { port, url: `http://127.0.0.1:${port}`, connections: () => connections }
}

describe('textToVideo$ refuses an audio_url inside the network: nothing is sent there, no task is created', () => {
  it('127.0.0.1 on another port: the same refusal for an open port and a closed one, and the service sees no connection', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const internal = await internalService()
    const closed = await closedPort()
    const open = await errorOf(textToVideo$(clientOf(sim), { prompt: 'A fox', audio_url: `${internal.url}/admin` }))
    const shut = await errorOf(textToVideo$(clientOf(sim), { prompt: 'A fox', audio_url: `http://127.0.0.1:${closed}/admin` }))
    expect(refusalOf(open)).toBe(`refers to a private address (loopback); ${ADVICE}`)
    expect((open as Error).message).toBe((shut as Error).message)
    expect((open as Error).message).not.toContain('RIFF')
    expect(internal.connections()).toBe(0)
    expect(creations(sim)).toEqual([])
  })

  it.each([
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'link-local'],
    ['IPv6 loopback', 'http://[::1]:8080/voice.wav', 'loopback'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:8080/voice.wav', 'loopback'],
    ['a private network', 'http://10.0.0.5/voice.wav', 'RFC 1918'],
    ['a name for loopback', 'http://localhost:8080/voice.wav', 'loopback'],
  ])('%s: refused', async (_, audioUrl, range) => {
    const sim = await simulator({ timeScale: FROZEN })
    const error = await errorOf(textToVideo$(clientOf(sim), { prompt: 'A fox', audio_url: audioUrl }))
    expect(refusalOf(error)).toBe(`refers to a private address (${range}); ${ADVICE}`)
    expect(creations(sim)).toEqual([])
  })

  it('an allowed file host that redirects inside: the redirect is refused, its target sees nothing', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const internal = await internalService()
    const files = await startServer((_req, res) => res.writeHead(302, { location: `${internal.url}/admin` }).end())
    const error = await errorOf(textToVideo$(clientOf(sim, { allowHosts: [files.url] }), { prompt: 'A fox', audio_url: `${files.url}/voice.wav` }))
    expect(refusalOf(error)).toBe(`redirects to a private address (loopback); ${ADVICE}`)
    expect(files.requests.length).toBe(1)
    expect(internal.connections()).toBe(0)
    expect(creations(sim)).toEqual([])
  })
})

describe("with a fetch of the caller's own, a name that resolves inside the network is refused too", () => {
  /** A caller's fetch (a proxy's, say) that records what it is asked for. */
  function ownFetch() {
    const asked: string[] = []
    const fetch = (async (url: string) => (asked.push(url), new Response('RIFF-internal-admin-secrets'))) as unknown as typeof globalThis.fetch
    return { fetch, asked }
  }

  it('checkAudio: { fetch } in textToVideo$: refused, the fetch is never called, no task is created', async () => {
    fakeDns.names.set('169.254.169.254.nip.io', ['169.254.169.254'])
    const sim = await simulator({ timeScale: FROZEN })
    const own = ownFetch()
    const body = { prompt: 'A fox', audio_url: 'http://169.254.169.254.nip.io/latest/meta-data/' }
    const error = await errorOf(textToVideo$(clientOf(sim), body, { checkAudio: { fetch: own.fetch as unknown as AudioFetch } }))
    expect(refusalOf(error)).toBe(`refers to a private address (link-local); ${ADVICE}`)
    expect(own.asked).toEqual([])
    expect(creations(sim)).toEqual([])
  })

  it('download$(…, { fetch }): refused at url, the fetch is never called', async () => {
    fakeDns.names.set('files.test', ['10.0.0.5'])
    const own = ownFetch()
    const error = await errorOf(download$('http://files.test/results/clip.mp4?sig=s3cr3t', { blob: true }, { fetch: own.fetch, retries: 0 }))
    expect((error as InvalidRequestError).issues).toEqual([{ path: 'url', message: `refers to a private address (RFC 1918); ${ADVICE}` }])
    expect((error as Error).message).not.toContain('s3cr3t')
    expect(own.asked).toEqual([])
  })
})

describe('the allow options, as a user sets them', () => {
  it("the gateway's own origin is allowed by default: the simulator's samples are read", async () => {
    const sim = await simulator({ timeScale: FROZEN })
    expect((await firstValueFrom(textToVideo$(clientOf(sim), { prompt: 'A fox', audio_url: sim.sampleUrl('tone-5s.wav') }))).type).toBe('created')
  })

  it('createClient({ allowHosts }) and createClient({ allowPrivateNetwork: true }) open private hosts to the probe', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const files = await audioHost(toneWav(5))
    const body = { prompt: 'A fox', audio_url: `${files.url}/voice.wav` }
    expect((await firstValueFrom(textToVideo$(clientOf(sim, { allowHosts: [`127.0.0.1:${files.port}`] }), body))).type).toBe('created')
    expect((await firstValueFrom(textToVideo$(clientOf(sim, { allowPrivateNetwork: true }), body))).type).toBe('created')
    expect(refusalOf(await errorOf(textToVideo$(clientOf(sim, { allowHosts: ['127.0.0.1:1'] }), body)))).toMatch(/^refers to a private address/)
    expect(creations(sim)).toHaveLength(2)
  })

  it('checkAudio: { allowHosts } opens a host for one call', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const files = await audioHost(toneWav(5))
    const created = await firstValueFrom(textToVideo$(clientOf(sim), { prompt: 'A fox', audio_url: `${files.url}/voice.wav` }, { checkAudio: { allowHosts: [files.url] } }))
    expect(created.type).toBe('created')
    expect(files.asked()).toEqual(['HEAD -', 'GET bytes=0-4095'])
  })

  it('createClient refuses malformed allow options at once', () => {
    expect(() => createClient({ baseUrl: 'https://gw.example.com', apiKey: 'k', allowHosts: 'localhost' as unknown as string[] })).toThrow(/allowHosts: must be an array/)
    expect(() => createClient({ baseUrl: 'https://gw.example.com', apiKey: 'k', allowHosts: ['files internal'] })).toThrow(/allowHosts\[0\]: must be a hostname/)
    expect(() => createClient({ baseUrl: 'https://gw.example.com', apiKey: 'k', allowPrivateNetwork: 'yes' as unknown as boolean })).toThrow(/allowPrivateNetwork: must be true or false \(got string\)/)
  })

  it('allowPrivateNetwork: "false" (an environment variable read as it is) is refused everywhere, never read as true', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const files = await audioHost(toneWav(5))
    const body = { prompt: 'A fox', audio_url: `${files.url}/voice.wav` }
    const word = 'must be true or false (got string)'
    const perCall = await errorOf(textToVideo$(clientOf(sim), body, { checkAudio: { allowPrivateNetwork: 'false' as unknown as boolean } }))
    expect((perCall as InvalidRequestError).issues).toEqual([{ path: 'checkAudio.allowPrivateNetwork', message: word }])
    const standalone = await errorOf(checkAudio$(body.audio_url, { allowPrivateNetwork: 'false' as unknown as boolean }))
    expect((standalone as InvalidRequestError).issues).toEqual([{ path: 'allowPrivateNetwork', message: word }])
    const download = await errorOf(download$(body.audio_url, { blob: true }, { allowPrivateNetwork: 'false' as unknown as boolean }))
    expect((download as InvalidRequestError).issues).toEqual([{ path: 'allowPrivateNetwork', message: word }])
    expect(() => createClient({ baseUrl: sim.url, apiKey: sim.apiKey, allowPrivateNetwork: 'false' as unknown as boolean })).toThrow(`allowPrivateNetwork: ${word}`)
    expect(files.requests).toEqual([])
    expect(creations(sim)).toEqual([])
  })

  it('refuses malformed per-call allowHosts before anything is read or created', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const files = await audioHost(toneWav(5))
    const body = { prompt: 'A fox', audio_url: `${files.url}/voice.wav` }
    const perCall = await errorOf(textToVideo$(clientOf(sim), body, { checkAudio: { allowHosts: [`${files.url}/files`] } }))
    expect((perCall as InvalidRequestError).issues.map((i) => i.path)).toEqual(['checkAudio.allowHosts[0]'])
    const standalone = await errorOf(checkAudio$(body.audio_url, { allowHosts: ['files internal'] }))
    expect((standalone as InvalidRequestError).issues.map((i) => i.path)).toEqual(['allowHosts[0]'])
    expect(files.requests).toEqual([])
    expect(creations(sim)).toEqual([])
  })
})
