import { crc32, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/sim/index.js'
import { FROZEN, json, simulator, T2V } from './helpers.js'

const IMAGE_EDIT = '/vendors/vendor-d/v1/image/edit'
const DONE = FROZEN.pendingMs + FROZEN.processingMs
const HOUR = 3_600_000

async function completed(sim: Simulator, path: string): Promise<{ id: string; urls: string[] }> {
  const { body } = await json(sim, path, { body: { prompt: 'A fox' } })
  sim.advanceTime(DONE)
  const reply = await json(sim, `${path}/${body.task_info.id}`)
  return { id: body.task_info.id, urls: reply.body.videos ?? reply.body.images }
}

/** Top-level MP4 boxes as [type, size]; throws when the sizes do not tile the file. */
function boxes(bytes: Buffer): [string, number][] {
  const found: [string, number][] = []
  for (let at = 0; at < bytes.length; ) {
    const size = bytes.readUInt32BE(at)
    if (size < 8 || at + size > bytes.length) throw new Error(`bad box at ${at}`)
    found.push([bytes.toString('latin1', at + 4, at + 8), size])
    at += size
  }
  return found
}

/** PNG chunks as [type, data], each CRC checked. */
function chunks(bytes: Buffer): [string, Buffer][] {
  const found: [string, Buffer][] = []
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at)
    const typeAndData = bytes.subarray(at + 4, at + 8 + length)
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData))
    found.push([typeAndData.toString('latin1', 0, 4), typeAndData.subarray(4)])
    at += 12 + length
  }
  return found
}

describe('simulator: result files', () => {
  it('serves a real MP4 for a completed video task, without a token', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { urls } = await completed(sim, T2V)
    const res = await fetch(urls[0]!)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('video/mp4')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.length).toBeGreaterThan(1_000)
    expect(bytes.length).toBeLessThan(20_000)
    const types = boxes(bytes).map(([type]) => type)
    expect(types[0]).toBe('ftyp')
    expect(types).toEqual(expect.arrayContaining(['moov', 'mdat']))
    expect(bytes.includes('avc1')).toBe(true)
  })

  it('answers a byte range with 206', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { urls } = await completed(sim, T2V)
    const res = await fetch(urls[0]!, { headers: { range: 'bytes=0-7' } })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toMatch(/^bytes 0-7\/\d+$/)
    expect(Buffer.from(await res.arrayBuffer()).toString('latin1', 4, 8)).toBe('ftyp')
  })

  it('serves two distinct valid 64×36 PNGs for an image task', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { id, urls } = await completed(sim, IMAGE_EDIT)
    expect(urls).toEqual([expect.stringContaining(`/files/${id}-1.png`), expect.stringContaining(`/files/${id}-2.png`)])
    const images = await Promise.all(urls.map(async (url) => {
      const res = await fetch(url)
      expect(res.headers.get('content-type')).toBe('image/png')
      return Buffer.from(await res.arrayBuffer())
    }))
    for (const png of images) {
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
      const parsed = chunks(png)
      expect(parsed.map(([type]) => type)).toEqual(['IHDR', 'IDAT', 'IEND'])
      const header = parsed[0]![1]
      expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([64, 36, 8, 2])
      expect(inflateSync(parsed[1]![1]).length).toBe(36 * (1 + 64 * 3))
    }
    expect(images[0]!.equals(images[1]!)).toBe(false)
  })

  it('stops serving the URLs one hour (simulated) after the task completed', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { urls } = await completed(sim, T2V)
    sim.advanceTime(HOUR - 60_000)
    expect((await fetch(urls[0]!)).status).toBe(200)
    sim.advanceTime(60_000)
    const expired = await fetch(urls[0]!)
    expect(expired.status).toBe(410)
    expect((await expired.json()).error.code).toBe('url_expired')
  })

  it('answers 404 for a file of an unfinished, unknown or mismatched task', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { body } = await json(sim, T2V, { body: { prompt: 'A fox' } })
    const id = body.task_info.id
    for (const name of [`${id}.mp4`, `${id}-1.png`, '00000000-0000-4000-8000-000000000000.mp4', 'nothing.txt']) {
      if (name === `${id}-1.png`) sim.advanceTime(DONE)
      expect((await fetch(`${sim.url}/files/${name}`)).status).toBe(404)
    }
    expect((await fetch(`${sim.url}/files/${id}.mp4`)).status).toBe(200)
  })
})
