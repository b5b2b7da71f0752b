import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createGateway, endpoints } from '../../src/index.js'
import { envWith, runCli, simulator, startCli, type Ctx } from './helpers.js'

// The CLI as a child process: each command takes only its own flags, and
// bad input is refused in one line before anything starts.

const EMBEDDED = /embedded gateway simulator/
const FROZEN = { pendingMs: 30_000, processingMs: 150_000 } as const

async function tempDir(ctx: Ctx): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-cli-'))
  ctx.onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe.concurrent('rxgate CLI: strict flags', () => {
  it.for<[string[], string, string]>([
    [['respond', 'hi', '--size', '1280x720', '--duration', '10'], '--size is not a flag of rxgate respond', 'Usage: rxgate respond'],
    [['task', 't2vSpark', randomUUID(), '--stream'], '--stream is not a flag of rxgate task', 'Usage: rxgate task'],
    [['sim', '--poll-ms', '200'], '--poll-ms is not a flag of rxgate sim', 'Usage: rxgate sim'],
    [['respond', 'hi', '--bogus'], 'unknown flag --bogus', 'Usage: rxgate respond'],
    [['respond', 'hi', '--bogus=3'], 'unknown flag --bogus', 'Usage: rxgate respond'],
    [['respond', 'hi', '--model'], '--model needs a value', 'Usage: rxgate respond'],
    [['respond', 'hi', '--model', '--stream'], '--model needs a value', 'Usage: rxgate respond'],
    [['respond', 'hi', '--stream=yes'], '--stream takes no value', 'Usage: rxgate respond'],
    [['--json'], '--json needs a command', 'Usage: rxgate <command>'],
    [['respond', 'What', 'is', '2+2'], 'rxgate respond takes one argument (got 3); quote text that has spaces', 'Usage: rxgate respond'],
    [['task', 't2vSpark', randomUUID(), 'extra'], 'rxgate task takes 2 arguments (got 3); quote text that has spaces', 'Usage: rxgate task'],
    [['task', 't2vSpark', randomUUID(), '--out='], '--out needs a value', 'Usage: rxgate task'],
  ])('%j: exit 2, one line naming the flag, then the command’s usage; nothing started', async ([args, line, usage], ctx) => {
    const { code, stdout, stderr } = await runCli(ctx, args)
    expect(code).toBe(2)
    expect(stderr.split('\n')[0]).toBe(`rxgate: ${line}.`)
    expect(stderr).toContain(usage)
    expect(stderr).not.toMatch(EMBEDDED)
    expect(stderr).not.toMatch(/To specify a positional argument|Unknown option/)
    expect(stdout).toBe('')
  })

  it.for<[string[], RegExp]>([
    [['task', 'nope', randomUUID()], /^rxgate: InvalidRequestError: .*endpoint: must be one of t2vSpark/],
    [['video', 'x', '--audio', 'not-a-url'], /^rxgate: InvalidRequestError: .*audio_url/],
    [['video', 'x', '--duration', '7'], /^rxgate: InvalidRequestError: .*duration/],
  ])('%j: refused with the error’s name before the embedded simulator starts', async ([args, line], ctx) => {
    const { code, stderr } = await runCli(ctx, args)
    expect(code).toBe(2)
    expect(stderr.split('\n')[0]).toMatch(line)
    expect(stderr).not.toMatch(EMBEDDED)
    expect(stderr).not.toMatch(/not checked here/)
  })

  it('task --out saves every result of the task before its URLs expire', async (ctx) => {
    const sim = await simulator(ctx, { timeScale: FROZEN })
    const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey })
    const created = await firstValueFrom(gateway.createTask$(endpoints.i2iPreview, { prompt: 'a watercolour harbour' }))
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const dir = await tempDir(ctx)
    const { code, stdout, stderr } = await runCli(ctx, ['task', 'i2iPreview', created.taskId, '--out', dir, '--json'], { env: envWith({ GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey }) })
    expect(code, stderr).toBe(0)
    const names = (await readdir(dir)).sort()
    expect(names).toEqual([`${created.taskId}-1.png`, `${created.taskId}-2.png`])
    for (const name of names) expect((await stat(join(dir, name))).size).toBeGreaterThan(100)
    const view = JSON.parse(stdout) as { file: string; files: string[] }
    expect(view.files).toEqual(names.map((n) => join(dir, n)))
  })

  it('Ctrl-C while following with --out: the follow command it prints keeps --out', async (ctx) => {
    const sim = await simulator(ctx, { timeScale: FROZEN })
    const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey })
    const created = await firstValueFrom(gateway.createTask$(endpoints.t2vSpark, { prompt: 'a pier at night' }))
    const cli = startCli(ctx, ['task', 't2vSpark', created.taskId, '--out', 'videos'], { env: envWith({ GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey }) })
    await cli.waitFor(/pending/, 'stderr')
    cli.child.kill('SIGINT')
    const { code, stderr } = await cli.exit
    expect(code).toBe(130)
    expect(stderr).toContain(`rxgate task t2vSpark ${created.taskId} --out videos`)
  })
})
