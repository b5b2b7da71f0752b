import { describe, expect, it } from 'vitest'
import { openSink } from '../../src/download/sink.browser.js'
import type { DownloadTarget } from '../../src/download/types.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'

const bytes = (text: string) => new TextEncoder().encode(text)

const MESSAGE = 'a file path needs Node; in a browser pass { blob: true } and save the Blob (e.g. with a link to URL.createObjectURL(blob))'

describe('openSink (browser build)', () => {
  it('{ blob: true } collects a Blob', async () => {
    const sink = openSink({ blob: true, type: 'video/mp4' }, true)
    await sink.write(bytes('kite'))
    const { blob } = await sink.finish(undefined)
    expect(blob!.type).toBe('video/mp4')
    expect(await blob!.text()).toBe('kite')
  })

  // A file path cannot be written in a browser; the message says what to pass instead.
  it.each([
    ['a file path', 'out/kite.mp4'],
    ['an empty path', ''],
    ['null', null],
    ['an empty object', {}],
    ['{ blob: false }', { blob: false }],
    ['an object whose write is not a function', { write: 'yes' }],
  ])('refuses %s', (_, target) => {
    let error: unknown
    try {
      openSink(target as unknown as DownloadTarget, true)
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toBe(`Invalid download target: target: ${MESSAGE}. Nothing was sent.`)
    expect(error).toMatchObject({ issues: [{ path: 'target', message: MESSAGE }] })
  })
})
