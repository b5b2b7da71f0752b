import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, endpoints } from '../../src/index.js'
import { startSimulator, type Simulator } from '../../src/sim/index.js'
import { runInProcess } from './inProcess.js'

// A task id is the gateway's word: --out must not replace a file already there unless --overwrite says so.

const FROZEN = { pendingMs: 30_000, processingMs: 150_000 } as const
let sim: Simulator
let dir: string
beforeAll(async () => {
  sim = await startSimulator({ timeScale: FROZEN })
  dir = await mkdtemp(join(tmpdir(), 'rxgate-cli-'))
})
afterAll(async () => {
  await sim.close()
  await rm(dir, { recursive: true, force: true })
})

/** A completed t2vSpark task of the simulator. */
async function completedTask(): Promise<string> {
  const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey })
  const { taskId } = await firstValueFrom(gateway.createTask$(endpoints.t2vSpark, { prompt: 'a kite' }))
  sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
  return taskId
}

/** Runs the CLI in this process against the gateway, capturing what it prints. */
const run = (args: string[]) => runInProcess(args, { GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey })

describe('rxgate task --out, a file already there', () => {
  it('is kept: exit 1 naming the file and --overwrite, the follow command, nothing else written in the folder', async () => {
    const id = await completedTask()
    const file = join(dir, `${id}.mp4`)
    await writeFile(file, 'my own video')
    const before = await readdir(dir)
    const { code, stdout, stderr } = await run(['task', 't2vSpark', id, '--out', dir])
    expect(code).toBe(1)
    expect(await readFile(file, 'utf8')).toBe('my own video')
    expect(await readdir(dir)).toEqual(before)
    expect(stderr).toContain(`rxgate: ${file} already exists, so the result was not saved over it: move it away, or pass --overwrite to replace it.`)
    expect(stderr).toContain(`save them with: rxgate task t2vSpark ${id} --out`)
    expect(stdout).toBe('')
  })

  it('is replaced with --overwrite', async () => {
    const id = await completedTask()
    const file = join(dir, `${id}.mp4`)
    await writeFile(file, 'old')
    const { code, stderr } = await run(['task', 't2vSpark', id, '--out', dir, '--overwrite'])
    expect(code, stderr).toBe(0)
    expect((await readFile(file)).length).toBeGreaterThan(1000)
  })

  it('--overwrite without --out is bad input, before anything is sent', async () => {
    const id = await completedTask()
    const { code, stderr } = await run(['task', 't2vSpark', id, '--overwrite'])
    expect(code).toBe(2)
    expect(stderr.split('\n')[0]).toBe('rxgate: --overwrite needs --out DIR: it replaces a file --out would save over.')
  })
})
