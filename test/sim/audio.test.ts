import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/sim/index.js'
import { host, ranged, servers } from './fileHost.js'
import { createTask, DONE, FROZEN, json, simulator, T2V } from './helpers.js'

/** Creates a task with this audio, then reads it pending and once it has left pending. */
async function outcome(sim: Simulator, audio_url: string): Promise<{ pending: string; after: any; finished: any }> {
  const id = await createTask(sim, T2V, { prompt: 'A fox', audio_url })
  const pending = (await json(sim, `${T2V}/${id}`)).body.task_info.status
  sim.advanceTime(FROZEN.pendingMs)
  const after = (await json(sim, `${T2V}/${id}`)).body.task_info
  sim.advanceTime(FROZEN.processingMs)
  const finished = (await json(sim, `${T2V}/${id}`)).body
  return { pending, after, finished }
}

const invalid = (detail: string | RegExp) => ({ status: 'failed', error: { code: 400, title: 'Invalid Request', detail: typeof detail === 'string' ? detail : expect.stringMatching(detail) } })

describe('simulator: custom audio rules (WAV or MP3, 3 to 30 s, at most 15 MB)', () => {
  it.each(['tone-5s.wav', 'tone-3s.wav', 'tone-30s.wav', 'tone-5s.mp3', 'tone-3s-cbr.mp3', 'tone-30s-id3.mp3'])('accepts %s: the task completes', async (name) => {
    const sim = await simulator({ timeScale: FROZEN })
    const { pending, finished } = await outcome(sim, sim.sampleUrl(name))
    expect(pending).toBe('pending')
    expect(finished.task_info.status).toBe('completed')
    expect(finished.videos).toHaveLength(1)
  })

  it.each([
    ['tone-2s.wav', 'audio is 2.0 s; allowed 3 to 30 s'],
    ['tone-31s.wav', 'audio is 31.0 s; allowed 3 to 30 s'],
    ['tone-2.9s.wav', 'audio is 2.9 s; allowed 3 to 30 s'],
    ['tone-31s.mp3', 'audio is 31.0 s; allowed 3 to 30 s'],
    ['tone-2s-cbr.mp3', 'audio is 2.0 s; allowed 3 to 30 s'],
    ['tone-40s-id3.mp3', 'audio is 40.0 s; allowed 3 to 30 s'],
    ['too-large.wav', 'audio is 16.0 MB; allowed at most 15 MB'],
    ['image.mp3', 'audio is not WAV or MP3 (the file starts with bytes 89 50 4e 47)'],
  ])('creates a task with %s (202), which fails as it leaves pending: %s', async (name, detail) => {
    const sim = await simulator({ timeScale: FROZEN })
    const { pending, after, finished } = await outcome(sim, sim.sampleUrl(name))
    expect(pending).toBe('pending')
    expect(after).toMatchObject(invalid(detail))
    expect(finished).not.toHaveProperty('videos')
    expect(finished.task_info).toMatchObject(invalid(detail))
  })

  it('reads its own samples in process: no extra requests in the log', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    await outcome(sim, sim.sampleUrl('tone-31s.wav'))
    expect(sim.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET'])
  })

  it('reads audio on 127.0.0.1 with a ranged GET of the first kilobyte', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const wav = Buffer.from(await (await fetch(sim.sampleUrl('tone-31s.wav'))).arrayBuffer())
    const file = await host(ranged(wav))
    const { after } = await outcome(sim, `${file.url}/voice.wav`)
    expect(after).toMatchObject(invalid('audio is 31.0 s; allowed 3 to 30 s'))
    expect(file.seen.map((r) => [r.method, r.url, r.headers.range])).toEqual([['GET', '/voice.wav', 'bytes=0-1023']])
  })

  it('reads past a long ID3 tag with a second ranged GET at the first frame', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const mp3 = Buffer.from(await (await fetch(sim.sampleUrl('tone-2s-id3.mp3'))).arrayBuffer())
    const file = await host(ranged(mp3))
    const { after } = await outcome(sim, `${file.url}/a.mp3`)
    expect(after).toMatchObject(invalid('audio is 2.0 s; allowed 3 to 30 s'))
    expect(file.seen.map((r) => r.headers.range)).toEqual(['bytes=0-1023', expect.stringMatching(/^bytes=2\d{3}-\d+$/)])
  })

  it('stops reading a server that ignores ranges and sends the whole file, and takes the size from Content-Length', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const size = 16 * 1024 * 1024
    let written = 0
    let finished = false
    const file = await host((_, res) => {
      res.writeHead(200, { 'content-length': size, 'content-type': 'audio/wav' })
      const header = Buffer.from(Buffer.alloc(44))
      header.write('RIFF', 0)
      header.write('WAVEfmt ', 8)
      const chunk = Buffer.alloc(64 * 1024)
      const pump = () => {
        while (written < size) {
          const piece = written === 0 ? Buffer.concat([header, chunk.subarray(44)]) : chunk
          written += piece.length
          if (!res.write(piece)) return void res.once('drain', pump)
        }
        finished = true
        res.end()
      }
      pump()
    })
    const { after } = await outcome(sim, `${file.url}/big.wav`)
    expect(after).toMatchObject(invalid('audio is 16.0 MB; allowed at most 15 MB'))
    expect(finished).toBe(false)
    expect(written).toBeLessThan(size)
  })

  it('fails the task when the audio URL answers an error or cannot be reached', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const missing = await host((_, res) => res.writeHead(404).end())
    expect((await outcome(sim, `${missing.url}/gone.wav`)).after).toMatchObject(invalid('audio_url could not be read: it answered HTTP 404'))
    const closed = await host(() => {})
    const port = new URL(closed.url).port
    servers[servers.length - 1]!.close()
    expect((await outcome(sim, `http://127.0.0.1:${port}/a.wav`)).after).toMatchObject(invalid(/^audio_url could not be read: the connection failed \(ECONNREFUSED\)$/))
  })

  it('fails the task when the audio URL does not answer within audioProbeTimeoutMs', async () => {
    const sim = await simulator({ timeScale: FROZEN, audioProbeTimeoutMs: 30 })
    const silent = await host(() => {})
    expect((await outcome(sim, `${silent.url}/slow.wav`)).after).toMatchObject(invalid('audio_url could not be read: no answer within 30 ms'))
  })

  it('does not fetch audio it cannot reach from 127.0.0.1 (the internet): the task goes on', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { finished } = await outcome(sim, 'https://example.com/voice.mp3')
    expect(finished.task_info.status).toBe('completed')
  })

  it('an audio failure wins over a [fail:3001] marker, as it comes first', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const id = await createTask(sim, T2V, { prompt: 'A fox [fail:3001]', audio_url: sim.sampleUrl('image.mp3') })
    sim.advanceTime(DONE)
    expect((await json(sim, `${T2V}/${id}`)).body.task_info.error.code).toBe(400)
  })
})
