import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { of } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { saveResults, type SaveResultsEvent } from '../../src/download/saveResults.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isValidationError } from '../../src/errors/ValidationError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { collect } from '../helpers/collect.js'
import { startServer } from '../helpers/server.js'

// The gateway, or the storage host it names, writes the result URLs: their extension and their number are its choice.

const HOUR = 60 * 60 * 1000

/** A completed task event of these URLs; a video's carries expiresAt. */
function completed(taskId: string, urls: string[], kind: 'video' | 'image'): TaskEvent {
  return { type: 'completed', taskId, urls, taskInfo: {} as never, reply: {} as never, ...(kind === 'video' ? { expiresAt: new Date(Date.now() + HOUR) } : {}) }
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-limits-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** A loopback host answering every path with four bytes. */
const host = () => startServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '4' }).end('kite'))

const saved = (values: SaveResultsEvent[]) => values.filter((e) => e.type === 'saved').map((e) => e.file.slice(e.file.lastIndexOf('/') + 1))

/** What a call throws at once. */
function thrownBy(call: () => unknown): unknown {
  try {
    call()
  } catch (error) {
    return error
  }
  throw new Error('nothing was thrown')
}

describe('saveResults takes from the URL only a media extension of the result kind', () => {
  const hostile = ['page.html', 'run.exe', 'logo.svg', 'app.js', 'go.bat', 'x.hta', 'a.HTML']

  it.each([
    ['video', 'mp4'],
    ['image', 'png'],
  ] as const)('a %s whose URL ends in .html, .exe, .svg, .js, .bat or .hta is saved with .%s', async (kind, fallback) => {
    const server = await host()
    const dir = await scratch()
    const urls = hostile.map((p) => `${server.url}/files/${p}`)
    const { values, error } = await collect(of(completed('t', urls, kind)).pipe(saveResults(dir, { allowHosts: [server.url] })))
    expect(error).toBeUndefined()
    const names = hostile.map((_, i) => `t-${i + 1}.${fallback}`)
    expect(saved(values)).toEqual(names)
    expect((await readdir(dir)).sort()).toEqual([...names].sort())
  })

  it.each([
    ['video', ['a.mp4', 'b.WEBM', 'c.mov', 'd.m4v', 'e.png', 'f.gif'], ['mp4', 'webm', 'mov', 'm4v', 'mp4', 'mp4']],
    ['image', ['a.png', 'b.JPG', 'c.jpeg', 'd.webp', 'e.gif', 'f.mp4'], ['png', 'jpg', 'jpeg', 'webp', 'gif', 'png']],
  ] as const)('a %s keeps the media extensions of its kind, lower-cased, and no other kind’s', async (kind, paths, exts) => {
    const server = await host()
    const dir = await scratch()
    const { values } = await collect(of(completed('t', paths.map((p) => `${server.url}/${p}`), kind)).pipe(saveResults(dir, { allowHosts: [server.url] })))
    expect(saved(values)).toEqual(exts.map((ext, i) => `t-${i + 1}.${ext}`))
  })

  it('a result that is no URL is refused by the download, before any request, not named from the URL', async () => {
    const dir = await scratch()
    const { error } = await collect(of(completed('t', ['not a url.png'], 'image')).pipe(saveResults(dir)))
    expect(error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'url', message: 'must be an http:// or https:// URL' }] })
    expect(await readdir(dir)).toEqual([])
  })
})

describe('saveResults downloads at most maxFiles results of a task', () => {
  it('a task listing 100 URLs: ValidationError before any request, no file', async () => {
    const server = await host()
    const dir = await scratch()
    const urls = Array.from({ length: 100 }, (_, i) => `${server.url}/files/${i}.png`)
    const { values, error } = await collect(of(completed('t', urls, 'image')).pipe(saveResults(dir, { allowHosts: [server.url] })))
    expect(isValidationError(error)).toBe(true)
    expect(error).toMatchObject({
      taskId: 't',
      issues: [{ path: 'urls', message: 'lists 100 result files, more than the 16 allowed (maxFiles); none was downloaded (pass a larger maxFiles if such tasks are expected)' }],
    })
    expect((error as Error).message).toBe(
      'Unexpected task result from the gateway: urls: lists 100 result files, more than the 16 allowed (maxFiles); none was downloaded (pass a larger maxFiles if such tasks are expected).',
    )
    expect(values).toEqual([])
    expect(server.requests).toHaveLength(0)
    expect(await readdir(dir)).toEqual([])
  })

  it.each([
    [undefined, 16],
    [3, 3],
    [1, 1],
  ])('maxFiles %s: %s URLs are saved, one more is refused', async (maxFiles, limit) => {
    const server = await host()
    const dir = await scratch()
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `${server.url}/files/${i}.png`)
    const ok = await collect(of(completed('a', urls(limit), 'image')).pipe(saveResults(dir, { allowHosts: [server.url], maxFiles })))
    expect(ok.error).toBeUndefined()
    expect(saved(ok.values)).toHaveLength(limit)
    const over = await collect(of(completed('b', urls(limit + 1), 'image')).pipe(saveResults(dir, { allowHosts: [server.url], maxFiles })))
    expect(over.error).toMatchObject({ name: 'ValidationError', issues: [{ path: 'urls', message: expect.stringContaining(`lists ${limit + 1} result files, more than the ${limit} allowed (maxFiles);`) }] })
    expect(server.requests).toHaveLength(limit)
  })

  it.each([
    [0, '0'],
    [-1, '-1'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [2 ** 53, String(2 ** 53)],
    ['4', 'string'],
    [null, 'object'],
  ])('maxFiles %s: InvalidRequestError at once', (maxFiles, shown) => {
    const error = thrownBy(() => saveResults('out', { maxFiles: maxFiles as number }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(error).toMatchObject({
      issues: [{ path: 'maxFiles', message: `must be an integer of at least 1 (got ${shown})` }],
      message: `Invalid saveResults: maxFiles: must be an integer of at least 1 (got ${shown}). Nothing was sent.`,
    })
  })
})

describe('saveResults refuses the root folder', () => {
  it.each(['/', '//', '\\'])('dir %j: InvalidRequestError at once, rather than the working folder', (dir) => {
    const error = thrownBy(() => saveResults(dir))
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toBe(`Invalid saveResults: dir: is the root folder (got ${JSON.stringify(dir)}); name a folder to save into. Nothing was sent.`)
  })

  it('a folder under the root is taken', () => {
    expect(() => saveResults('/srv/out/')).not.toThrow()
  })
})

describe('what each refused option says', () => {
  it.each([
    ['dir null', () => saveResults(null as never), 'dir: must be a folder path (got null)'],
    ['dir a number', () => saveResults(3 as never), 'dir: must be a folder path (got number)'],
    ['dir undefined', () => saveResults(undefined as never), 'dir: must be a folder path (got undefined)'],
    ['concurrency 0', () => saveResults('out', { concurrency: 0 }), 'concurrency: must be an integer of at least 1 (got 0)'],
    ['sha256 a digest', () => saveResults('out', { sha256: 'ab' as never }), 'sha256: must be true or false here: one expected digest cannot fit several files (check each with download$)'],
    ['overwrite a string', () => saveResults('out', { overwrite: 'yes' as never }), 'overwrite: must be true or false (got string)'],
    ['maxBytes 0', () => saveResults('out', { maxBytes: 0 }), 'maxBytes: must be an integer from 1 to 2^53-1, in bytes (got 0)'],
  ])('%s', (_, call, says) => {
    const error = thrownBy(call)
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toBe(`Invalid saveResults: ${says}. Nothing was sent.`)
  })
})

it('a file already at a result’s name: its refusal says what saveResults did and how to replace it', async () => {
  const dir = await scratch()
  await writeFile(join(dir, 't-1.png'), 'mine')
  const { error } = await collect(of(completed('t', ['https://cdn.example/a.png'], 'image')).pipe(saveResults(dir)))
  expect(isInvalidRequestError(error)).toBe(true)
  expect((error as Error).message).toBe(`Invalid saveResults: file: ${dir}/t-1.png already exists; saveResults replaces no file unless given overwrite: true. Nothing was sent.`)
})
