import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { of } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { saveResults } from '../../src/download/saveResults.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { collect } from '../helpers/collect.js'
import { fakeGateway } from '../helpers/fakeTransport.js'

// saveResults looks at the result's name before any request; a file put
// there after that look, while the result downloads, must not be replaced.

const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'

function completed(taskId: string, urls: string[]): TaskEvent {
  return { type: 'completed', taskId, urls, taskInfo: {} as never, reply: {} as never }
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-race-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** A result host that, as the download is asked for (after the check), has a file put at the result's name. */
function hostPlanting(file: string) {
  return fakeGateway(async () => {
    await writeFile(file, 'the user’s own')
    return { status: 200, headers: { 'content-length': '4' }, body: 'kite' }
  })
}

describe('saveResults: a file that appears at the name during the download', () => {
  it('is kept, and the save fails saying so, leaving no temporary file', async () => {
    const dir = await scratch()
    const file = join(dir, `${ID}-1.png`)
    const gw = hostPlanting(file)
    const { values, error } = await collect(of(completed(ID, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: gw.transport })))
    expect(gw.requests).toHaveLength(1)
    expect(values.filter((e) => e.type === 'saved')).toEqual([])
    expect(isGatewayError(error)).toBe(true)
    expect((error as Error).message).toContain(`${file} appeared while it was downloaded, and is not replaced`)
    expect(await readFile(file, 'utf8')).toBe('the user’s own')
    expect(await readdir(dir)).toEqual([`${ID}-1.png`])
  })

  it('with overwrite: true, is replaced', async () => {
    const dir = await scratch()
    const file = join(dir, `${ID}-1.png`)
    const { error } = await collect(of(completed(ID, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: hostPlanting(file).transport, overwrite: true })))
    expect(error).toBeUndefined()
    expect(await readFile(file, 'utf8')).toBe('kite')
  })
})
