import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { openSink as openBrowserSink } from '../../src/download/sink.browser.js'
import { openSink } from '../../src/download/sink.js'
import type { DownloadTarget } from '../../src/download/types.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { recordingStream } from './recordingStream.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('openSink (Node)', () => {
  it('a path saves to that file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxgate-sink-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const sink = openSink(join(dir, 'v.mp4'), true)
    await sink.write(bytes('kite'))
    expect(await sink.finish(undefined)).toEqual({ file: join(dir, 'v.mp4') })
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('kite')
  })

  it('{ blob: true } collects a Blob', async () => {
    const sink = openSink({ blob: true }, true)
    await sink.write(bytes('kite'))
    const { blob } = await sink.finish('image/png')
    expect(blob!.type).toBe('image/png')
    expect(await blob!.text()).toBe('kite')
  })

  // Anything else is refused before any request, with the same message.
  it.each([
    ['an empty path', ''],
    ['null', null],
    ['a number', 42],
    ['an empty object', {}],
    ['{ blob: false }', { blob: false }],
    ['an object whose write is not a function', { write: 42 }],
  ])('refuses %s', (_, target) => {
    let error: unknown
    try {
      openSink(target as unknown as DownloadTarget, true)
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toBe('Invalid download target: target: must be a file path, a Writable, or { blob: true }. Nothing was sent.')
    expect(error).toMatchObject({ issues: [{ path: 'target', message: 'must be a file path, a Writable, or { blob: true }' }] })
  })
})

// Both builds take a stream-like target alike.
describe.each([
  ['Node', openSink],
  ['browser build', openBrowserSink],
])('openSink (%s)', (_, open) => {
  it('an object with a write function is a stream, ended only when asked', async () => {
    const ended = recordingStream()
    const sink = open(ended, true)
    await sink.write(bytes('kite'))
    expect(await sink.finish(undefined)).toEqual({})
    expect(ended).toMatchObject({ chunks: ['kite'], ended: true })
    const left = recordingStream()
    await open(left, false).finish(undefined)
    expect(left.ended).toBe(false)
  })
})
