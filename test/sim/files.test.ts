import { crc32, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/sim/index.js'
import { DONE, FROZEN, IMAGE_EDIT, json, simulator, T2V } from './helpers.js'
import { download } from './rawHttp.js'

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
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(bytes.length).toBe(2899)
    const types = boxes(bytes).map(([type]) => type)
    expect(types[0]).toBe('ftyp')
    expect(types).toEqual(expect.arrayContaining(['moov', 'mdat']))
    expect(bytes.includes('avc1')).toBe(true)
  })

  it('answers byte ranges with 206, HEAD with the headers only, and an unsatisfiable range with 416', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { urls } = await completed(sim, T2V)
    const whole = Buffer.from(await (await fetch(urls[0]!)).arrayBuffer())
    const cases: [string, number, number][] = [
      ['bytes=0-7', 0, 8],
      ['bytes=2890-', 2890, 2899],
      ['bytes=-9', 2890, 2899],
      ['bytes=2890-99999', 2890, 2899],
    ]
    for (const [range, from, to] of cases) {
      const res = await fetch(urls[0]!, { headers: { range } })
      expect(res.status).toBe(206)
      expect(res.headers.get('content-range')).toBe(`bytes ${from}-${to - 1}/2899`)
      expect(Buffer.from(await res.arrayBuffer())).toEqual(whole.subarray(from, to))
    }
    const head = await fetch(urls[0]!, { method: 'HEAD' })
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, '2899', 0])
    const beyond = await fetch(urls[0]!, { headers: { range: 'bytes=2899-' } })
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, 'bytes */2899'])
    expect((await fetch(urls[0]!, { headers: { range: 'bytes=5-2' } })).status).toBe(200) // unreadable: ignored
  })

  it('serves two distinct valid 64×36 PNGs for an image task', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { id, urls } = await completed(sim, IMAGE_EDIT)
    expect(urls).toEqual([expect.stringContaining(`/files/${id}-1.png`), expect.stringContaining(`/files/${id}-2.png`)])
    const images = await Promise.all(
      urls.map(async (url) => {
        const res = await fetch(url)
        expect(res.headers.get('content-type')).toBe('image/png')
        return Buffer.from(await res.arrayBuffer())
      }),
    )
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

  it('dropDownloadAt cuts every download after that many bytes; ranged resumes put the whole file together', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { urls } = await completed(sim, T2V)
    const whole = Buffer.from(await (await fetch(urls[0]!)).arrayBuffer())
    sim.setFaults({ dropDownloadAt: { bytes: 1000 } })
    const parts: Buffer[] = []
    let got = 0
    for (let attempt = 0; got < whole.length && attempt < 10; attempt++) {
      const part = await download(urls[0]!, got === 0 ? undefined : `bytes=${got}-`)
      expect(part.status).toBe(got === 0 ? 200 : 206)
      expect(part.declared).toBe(whole.length - got)
      expect(part.reset).toBe(whole.length - got > 1000)
      parts.push(part.bytes)
      got += part.bytes.length
    }
    expect(parts.map((p) => p.length)).toEqual([1000, 1000, 899])
    expect(Buffer.concat(parts)).toEqual(whole)
    expect(sim.faultCounts).toEqual({ dropDownloadAt: 2 })
  })
})
