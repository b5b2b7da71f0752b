import { firstValueFrom } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/client.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isTaskFailedError } from '../../src/errors/TaskFailedError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import type { Simulator } from '../../src/sim/index.js'
import { textToVideo$ } from '../../src/tasks$.js'
import { VirtualClock } from '../helpers/clock.js'
import { closedPort, startServer, within } from '../helpers/server.js'
import { errorOf, FAST_TASK_POLL, FROZEN, gatewayFor, observe, simulator } from '../e2e/helpers.js'
import { audioHost } from './audioHost.js'
import { toneWav } from './fixtures.js'

const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
const creations = (sim: Simulator) => sim.requests.filter((r) => r.method === 'POST' && r.path === T2V)
const sampleReads = (sim: Simulator) => sim.requests.filter((r) => r.path.startsWith('/samples/'))

/** The messages of an InvalidRequestError's issues, all at audio_url. */
function audioIssues(error: unknown): string[] {
  expect(isInvalidRequestError(error)).toBe(true)
  const { issues } = error as { issues: { path: string; message: string }[] }
  expect(issues.map((i) => i.path)).toEqual(issues.map(() => 'audio_url'))
  return issues.map((i) => i.message)
}

describe('textToVideo$ checks audio_url before the creation POST (against the simulator)', () => {
  it.each(['tone-5s.wav', 'tone-5s.mp3', 'tone-5s-cbr.mp3', 'tone-5s-id3.mp3', 'tone-3s.wav', 'tone-30s.wav'])('%s goes through: read first, then exactly one POST', async (name) => {
    const sim = await simulator({ timeScale: FROZEN })
    const created = await firstValueFrom(gatewayFor(sim).textToVideo$({ prompt: 'A fox', audio_url: sim.sampleUrl(name) }))
    expect(created.type).toBe('created')
    expect(creations(sim)).toHaveLength(1)
    expect(sampleReads(sim).map((r) => `${r.method} ${r.status}`)).toEqual(['HEAD 200', 'GET 206'])
    expect(sim.requests.indexOf(creations(sim)[0]!)).toBeGreaterThan(sim.requests.indexOf(sampleReads(sim).at(-1)!))
  })

  it.each([
    ['tone-2s.wav', ['audio is 2.0 s; the interface allows 3 to 30 s']],
    ['tone-31s.wav', ['audio is 31.0 s; the interface allows 3 to 30 s']],
    ['tone-31s-cbr.mp3', ['audio is 31.0 s (estimated from its bitrate); the interface allows 3 to 30 s']],
    ['too-large.wav', ['audio is 16.0 MB; the interface allows at most 15 MB']],
    ['image.mp3', ['audio is not WAV or MP3 (it starts with bytes 89 50 4E 47: a PNG image); the interface allows WAV or MP3']],
  ])('%s is refused before any POST: InvalidRequestError at audio_url', async (name, messages) => {
    const sim = await simulator({ timeScale: FROZEN })
    const error = await errorOf(gatewayFor(sim).textToVideo$({ prompt: 'A fox', audio_url: sim.sampleUrl(name) }))
    expect(audioIssues(error)).toEqual(messages)
    expect((error as Error).message).toMatch(/^Invalid text-to-video request: audio_url: .*\. Nothing was sent\.$/)
    expect(creations(sim)).toEqual([])
    expect(sim.tasks).toEqual([])
  })

  it('an unreachable URL is a typed error, and nothing is created: a refused connection, a 404', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const port = await closedPort()
    const refused = await errorOf(gatewayFor(sim, { allowHosts: [`127.0.0.1:${port}`] }).textToVideo$({ prompt: 'A fox', audio_url: `http://127.0.0.1:${port}/voice.wav` }))
    expect(audioIssues(refused)[0]).toMatch(/^could not be read: the connection failed \(ECONNREFUSED\)/)
    const missing = await errorOf(gatewayFor(sim).textToVideo$({ prompt: 'A fox', audio_url: sim.sampleUrl('no-such.wav') }))
    expect(audioIssues(missing)[0]).toMatch(/^could not be read: it answered HTTP 404/)
    expect(creations(sim)).toEqual([])
  })

  it.each([
    ['tone-2s.wav', 'audio is 2.0 s'],
    ['tone-31s.wav', 'audio is 31.0 s'],
    ['too-large.wav', 'audio is 16.0 MB'],
    ['image.mp3', 'audio is not WAV or MP3'],
  ])('with checkAudio: false, %s is sent, and the simulator fails the task with 400 Invalid Request', async (name, detail) => {
    const sim = await simulator({ timeScale: FROZEN })
    const o = observe(gatewayFor(sim).textToVideo$({ prompt: 'A fox', audio_url: sim.sampleUrl(name) }, { checkAudio: false }))
    await vi.waitFor(() => expect(o.values.at(-1)?.type).toBe('pending'))
    expect(sampleReads(sim)).toEqual([]) // the client did not read it; the simulator reads its samples in process
    sim.advanceTime(FROZEN.pendingMs)
    const { values, error } = await o.done
    expect(values.map((e: TaskEvent) => e.type)).toEqual(['created', 'pending'])
    expect(isTaskFailedError(error)).toBe(true)
    expect(error).toMatchObject({ code: 400, title: 'Invalid Request', detail: expect.stringContaining(detail) })
    expect(creations(sim)).toHaveLength(1)
  })

  it('never sends the gateway\'s Authorization (or any header of the client) to the audio host', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const host = await audioHost(toneWav(5))
    const gateway = gatewayFor(sim, { headers: { 'x-team': 'audio' }, allowHosts: [host.url] })
    expect((await firstValueFrom(gateway.textToVideo$({ prompt: 'A fox', audio_url: `${host.url}/voice.wav` }))).type).toBe('created')
    expect(host.requests.map((r) => r.method)).toEqual(['HEAD', 'GET'])
    for (const { headers } of host.requests) {
      expect(headers.authorization).toBeUndefined()
      expect(headers['x-team']).toBeUndefined()
      expect(JSON.stringify(headers)).not.toContain(sim.apiKey)
    }
    expect(creations(sim)).toHaveLength(1) // the simulator checks the token: the POST carried it
  })

  it('honours the client\'s timeoutMs on the client\'s scheduler; unsubscribing aborts the probe; no POST either way', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const clock = new VirtualClock()
    const stalled = await startServer(() => {})
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, timeoutMs: 8_000, scheduler: clock, taskPoll: FAST_TASK_POLL, allowHosts: [stalled.url] })
    const timedOut = observe(textToVideo$(client, { prompt: 'A fox', audio_url: `${stalled.url}/a.wav` }))
    const head = await stalled.request(1)
    await clock.run(8_000)
    expect(audioIssues(timedOut.error)[0]).toMatch(/^could not be read: nothing within 8000 ms/)
    await within(head.closedEarly, 2_000, 'the close of the timed-out HEAD')

    const left = observe(textToVideo$(client, { prompt: 'A fox', audio_url: `${stalled.url}/b.wav` }))
    const second = await stalled.request(2)
    left.subscription.unsubscribe()
    await within(second.closedEarly, 2_000, 'the close of the abandoned HEAD')
    expect(creations(sim)).toEqual([])
  })

  it('checkAudio: { fetch } replaces the probe\'s transport', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const seen: string[] = []
    const created = await firstValueFrom(
      gatewayFor(sim).textToVideo$(
        { prompt: 'A fox', audio_url: sim.sampleUrl('tone-5s.wav') },
        { checkAudio: { fetch: (url, init) => (seen.push(`${init.method} ${new URL(url).pathname}`), fetch(url, init)) } },
      ),
    )
    expect(created.type).toBe('created')
    expect(seen).toEqual(['HEAD /samples/tone-5s.wav', 'GET /samples/tone-5s.wav'])
  })

  it('a body that breaks its own rules is refused first: the audio is not read', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const error = await errorOf(gatewayFor(sim).textToVideo$({ prompt: '', audio_url: sim.sampleUrl('tone-5s.wav') }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(sim.requests).toEqual([])
  })
})
