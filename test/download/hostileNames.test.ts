import { lstat, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { of } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { saveResults, type SaveResultsEvent } from '../../src/download/saveResults.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { collect } from '../helpers/collect.js'
import { fakeGateway } from '../helpers/fakeTransport.js'

// A hostile gateway chooses the task ids and the result URLs that name the files saveResults writes.

const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'

function completed(taskId: string, urls: string[]): TaskEvent {
  return { type: 'completed', taskId, urls, taskInfo: {} as never, reply: {} as never }
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-names-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const kite = () => fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
const saved = (values: SaveResultsEvent[]) => values.filter((e) => e.type === 'saved').map((e) => e.file)

describe('saveResults replaces no file it did not write', () => {
  it('a file already at the result’s name: InvalidRequestError before any request, the file untouched', async () => {
    const dir = await scratch()
    await writeFile(join(dir, `${ID}-1.png`), 'the user’s own')
    const gw = kite()
    const { error } = await collect(of(completed(ID, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: gw.transport })))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(error).toMatchObject({ issues: [{ path: 'file', message: `${dir}/${ID}-1.png already exists; saveResults replaces no file unless given overwrite: true` }] })
    expect(gw.requests).toHaveLength(0)
    expect(await readFile(join(dir, `${ID}-1.png`), 'utf8')).toBe('the user’s own')
    expect(await readdir(dir)).toEqual([`${ID}-1.png`])
  })

  it('a link planted at the result’s name (a dangling one too) is refused, and left as it was', async () => {
    const dir = await scratch()
    await symlink(join(dir, 'nowhere'), join(dir, `${ID}-1.png`))
    const gw = kite()
    const { error } = await collect(of(completed(ID, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: gw.transport })))
    expect(error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'file' }] })
    expect(gw.requests).toHaveLength(0)
    expect((await lstat(join(dir, `${ID}-1.png`))).isSymbolicLink()).toBe(true)
    expect(await readlink(join(dir, `${ID}-1.png`))).toBe(join(dir, 'nowhere'))
  })

  it('a task the gateway completes twice: the second is saved over the first’s file, which this run wrote', async () => {
    const dir = await scratch()
    const gw = kite()
    const events = [completed(ID, ['https://cdn.example/files/a.png']), completed(ID, ['https://cdn.example/files/a.png'])]
    const { values, error } = await collect(of(...events).pipe(saveResults(dir, { transport: gw.transport, concurrency: 1 })))
    expect(error).toBeUndefined()
    expect(saved(values)).toEqual([`${dir}/${ID}-1.png`, `${dir}/${ID}-1.png`])
  })

  it('overwrite: true replaces the file', async () => {
    const dir = await scratch()
    await writeFile(join(dir, `${ID}-1.png`), 'old')
    const { values, error } = await collect(of(completed(ID, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: kite().transport, overwrite: true })))
    expect(error).toBeUndefined()
    expect(saved(values)).toEqual([`${dir}/${ID}-1.png`])
    expect(await readFile(join(dir, `${ID}-1.png`), 'utf8')).toBe('kite')
  })

  it.each(['yes', 1, null])('overwrite %j: InvalidRequestError at once', (overwrite) => {
    expect(() => saveResults('out', { overwrite: overwrite as never })).toThrow(expect.objectContaining({ name: 'InvalidRequestError', issues: [expect.objectContaining({ path: 'overwrite' })] }))
  })
})

describe('saveResults names no file from what the gateway spells', () => {
  it.each([
    ['percent-encoded traversal', '%2e%2e%2fx'],
    ['a NUL', 'a\u0000b'],
    ['a backslash', '..\\..\\x'],
    ['a leading dot', '.bashrc'],
    ['a name longer than 128 characters', 'a'.repeat(129)],
    ['a non-ASCII letter', 'tâche'],
    ['a trailing dot (Windows drops it)', 'task.'],
    ['an alternate data stream (Windows)', 'task:stream'],
  ])('task id with %s: InvalidRequestError before any request, nothing written', async (_, taskId) => {
    const dir = await scratch()
    const gw = kite()
    const { error } = await collect(of(completed(taskId, ['https://cdn.example/files/a.png'])).pipe(saveResults(join(dir, 'out'), { transport: gw.transport })))
    expect(error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'taskId' }] })
    expect(gw.requests).toHaveLength(0)
    expect(await readdir(dir)).toEqual([])
  })

  it.each([
    ['percent-encoded traversal', 'https://cdn.example/files/%2e%2e%2f%2e%2e%2fx.sh'],
    ['a traversal in the query', 'https://cdn.example/files/a?name=../../x.sh'],
    ['an encoded separator before the extension', 'https://cdn.example/files/a%2F..%2Fx'],
    ['a fragment that looks like a name', 'https://cdn.example/files/a#/../../x.sh'],
  ])('result URL with %s: the file is <taskId>-<index>.<ext> inside the folder', async (_, url) => {
    const dir = await scratch()
    const { values, error } = await collect(of(completed('t', [url])).pipe(saveResults(dir, { transport: kite().transport })))
    expect(error).toBeUndefined()
    expect(saved(values)).toHaveLength(1)
    expect(saved(values)[0]).toMatch(new RegExp(`^${dir}/t-1\\.[a-z0-9]{1,5}$`))
    expect((await readdir(dir)).map((f) => f.replace(/\.[a-z0-9]+$/, ''))).toEqual(['t-1'])
  })

  it('a reserved device name of Windows is never a whole name: it is followed by -<index>', async () => {
    const dir = await scratch()
    const { values } = await collect(of(completed('CON', ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: kite().transport })))
    expect(saved(values)).toEqual([`${dir}/con-1.png`])
  })
})
