import { describe, expect, it } from 'vitest'
import { blobSink } from '../../src/download/blobSink.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const textOf = async (blob: Blob | undefined) => new TextDecoder().decode(await blob!.arrayBuffer())

describe('blobSink', () => {
  it('makes one Blob of the chunks in order, typed from the reply', async () => {
    const sink = blobSink({ blob: true })
    await sink.write(bytes('kite '))
    await sink.write(bytes('over the sea'))
    const { blob } = await sink.finish('video/mp4')
    expect(blob!.type).toBe('video/mp4')
    expect(await textOf(blob)).toBe('kite over the sea')
  })

  it('the target type wins over the reply type; with neither, the Blob is untyped', async () => {
    const typed = blobSink({ blob: true, type: 'image/png' })
    await typed.write(bytes('x'))
    expect((await typed.finish('application/octet-stream')).blob!.type).toBe('image/png')
    const untyped = blobSink({ blob: true })
    await untyped.write(bytes('x'))
    expect((await untyped.finish(undefined)).blob!.type).toBe('')
  })

  it('restart drops what was written and says it can begin again', async () => {
    const sink = blobSink({ blob: true })
    await sink.write(bytes('first try, half'))
    expect(await sink.restart()).toBe(true)
    await sink.write(bytes('whole'))
    expect(await textOf((await sink.finish(undefined)).blob)).toBe('whole')
  })

  it('discard drops what was written', async () => {
    const sink = blobSink({ blob: true })
    await sink.write(bytes('given up'))
    await sink.discard()
    const { blob } = await sink.finish(undefined)
    expect(blob!.size).toBe(0)
  })

  it('keeps no chunk once the Blob is made', async () => {
    const sink = blobSink({ blob: true })
    await sink.write(bytes('once'))
    expect((await sink.finish(undefined)).blob!.size).toBe(4)
    expect((await sink.finish(undefined)).blob!.size).toBe(0)
  })
})
