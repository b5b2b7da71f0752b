import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createGateway, endpoints, outputText } from '../../src/index.js'
import type { Simulator } from '../../src/sim/index.js'
import { envWith, runCli, simulator, startCli, type Ctx } from './helpers.js'

const COMMANDS = ['sim', 'respond', 'video', 'task', 'bot'] as const
const EMBEDDED = /embedded gateway simulator/
const VIDEO_URL = /^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f-]{36}\.mp4\?expires=\d+$/
const FROZEN = { pendingMs: 30_000, processingMs: 150_000 } as const

/** The reply the simulator gives to `text` (it depends on the text alone), as rxgate reads it. */
async function replyTo(ctx: Ctx, text: string): Promise<string> {
  const sim = await simulator(ctx)
  const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey })
  return firstValueFrom(gateway.responses$({ model: 'gpt-4.1-mini', input: text }).pipe(outputText()))
}

const envFor = (sim: Simulator, key = sim.apiKey) => envWith({ GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: key })

async function tempDir(ctx: Ctx): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-cli-'))
  ctx.onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe.concurrent('rxgate CLI', () => {
  describe('help and usage', () => {
    it('--help prints the usage on stdout and exits 0', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['--help'])
      expect(code).toBe(0)
      expect(stdout).toMatch(/^rxgate: /)
      expect(stdout).toMatch(/Usage: rxgate <command>/)
      for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'))
      expect(stdout).toMatch(/Exit codes: 0 done, 1 gateway or task failure, 2 bad input, 130 cancelled/)
      expect(stderr).toBe('')
    })

    it.for(COMMANDS)('%s --help prints its own usage on stdout and exits 0', async (command, ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, [command, '--help'])
      expect(code).toBe(0)
      expect(stdout).toMatch(new RegExp(`^Usage: rxgate ${command}\\b`))
      expect(stdout).not.toMatch(/Usage: rxgate <command>/)
      expect(stderr).toBe('')
    })

    it('an unknown command exits 2 with a message and the usage on stderr', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['frobnicate', 'x'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/unknown command "frobnicate"/)
      expect(stderr).toMatch(/Usage: rxgate <command>/)
      expect(stdout).toBe('')
    })

    it('an unknown option exits 2', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['respond', 'hi', '--bogus'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/bogus/)
    })

    it('sim --port abc: exit 2 with a message naming the port, not a crash', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['sim', '--port', 'abc'])
      expect(stderr).toMatch(/port/i)
      expect(stderr).not.toMatch(/^\s+at /m) // no stack trace
      expect(code).toBe(2)
    })

    it('a missing argument exits 2 and names the command', async (ctx) => {
      const { code, stderr, stdout } = await runCli(ctx, ['task', 't2vSpark'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/rxgate task: missing argument/)
      expect(stdout).toBe('')
    })
  })

  describe('respond, against the embedded simulator', () => {
    it('"hi": stderr says it uses the simulator; stdout is the text', async (ctx) => {
      const [expected, { code, stdout, stderr }] = await Promise.all([replyTo(ctx, 'hi'), runCli(ctx, ['respond', 'hi'])])
      expect(code).toBe(0)
      expect(stderr).toMatch(EMBEDDED)
      expect(stdout).toBe(`${expected}\n`)
    })

    it('"hi" --stream: the same text, streamed', async (ctx) => {
      const [expected, { code, stdout, stderr }] = await Promise.all([replyTo(ctx, 'hi'), runCli(ctx, ['respond', 'hi', '--stream'])])
      expect(code).toBe(0)
      expect(stderr).toMatch(EMBEDDED)
      expect(stdout).toBe(`${expected}\n`)
    })

    it('"hi" --json: the Response as JSON on stdout', async (ctx) => {
      const [expected, { code, stdout }] = await Promise.all([replyTo(ctx, 'hi'), runCli(ctx, ['respond', 'hi', '--json'])])
      expect(code).toBe(0)
      const response = JSON.parse(stdout) as { object: string; status: string; output_text: string }
      expect(response).toMatchObject({ object: 'response', status: 'completed', output_text: expected })
    })

    it('"hi" --stream --json: one JSON event a line, ending in response.completed', async (ctx) => {
      const [expected, { code, stdout }] = await Promise.all([replyTo(ctx, 'hi'), runCli(ctx, ['respond', 'hi', '--stream', '--json'])])
      expect(code).toBe(0)
      const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; sequence_number: number; delta?: string })
      expect(events[0]!.type).toBe('response.created')
      expect(events.at(-1)!.type).toBe('response.completed')
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i))
      expect(events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')).toBe(expected)
    })

    it('a failed response exits 1 with ResponseFailedError on stderr', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['respond', 'please [fail]'])
      expect(code).toBe(1)
      expect(stderr).toMatch(/ResponseFailedError/)
      expect(stdout).toBe('')
    })
  })

  describe('video, task and bot, against the embedded simulator', () => {
    it('video "<prompt>": statuses on stderr, the video URL on stdout, exit 0', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'A red kite over a grey sea'])
      expect(code).toBe(0)
      expect(stderr).toMatch(EMBEDDED)
      const id = /Task ([0-9a-f-]{36}) created/.exec(stderr)?.[1]
      expect(id).toBeDefined()
      expect(stderr).toMatch(new RegExp(`Task ${id}: (pending|processing)`))
      expect(stderr).toMatch(new RegExp(`Task ${id} completed`))
      const lines = stdout.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(VIDEO_URL)
      expect(lines[0]).toContain(id)
    })

    it('video "x" --duration 7: exit 2, the message names duration, nothing on stdout', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'x', '--duration', '7'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/duration/)
      expect(stderr).not.toMatch(/created/)
      expect(stdout).toBe('')
    })

    it('video "x" --size 1000*1000: exit 2, the message names size', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['video', 'x', '--size', '1000*1000'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/size/)
    })

    it('video "boom [fail:3001]": exit 1, TaskFailedError and 3001 on stderr', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'boom [fail:3001]'])
      expect(code).toBe(1)
      expect(stderr).toMatch(/TaskFailedError/)
      expect(stderr).toMatch(/3001/)
      expect(stdout).toBe('')
    })

    it('task t2vSpark not-a-uuid: exit 2', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['task', 't2vSpark', 'not-a-uuid'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/UUID/)
      expect(stdout).toBe('')
    })

    it('task on an unknown endpoint name: exit 2', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['task', 'nope', randomUUID()])
      expect(code).toBe(2)
      expect(stderr).toMatch(/endpoint/)
    })

    it('task of an id the gateway does not know: exit 1, HttpError 404', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['task', 'videoOne', randomUUID()])
      expect(code).toBe(1)
      expect(stderr).toMatch(/HttpError/)
      expect(stderr).toMatch(/404/)
    })

    it('bot --out <dir>: writes an .mp4 of more than 1000 bytes and exits 0', async (ctx) => {
      const dir = await tempDir(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['bot', '--out', dir])
      expect(code, stderr).toBe(0)
      const files = (await readdir(dir)).filter((f) => f.endsWith('.mp4'))
      expect(files).toHaveLength(1)
      const bytes = await readFile(join(dir, files[0]!))
      expect(bytes.length).toBeGreaterThan(1000)
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp')
      expect(stdout).toContain(`Saved ${bytes.length} bytes to ${join(dir, files[0]!)}`)
      expect(stdout).toMatch(/\.mp4\?expires=\d+/)
    })

    it('video "<prompt>" --out <dir> (as the usage lists): saves the video under dir', async (ctx) => {
      const dir = await tempDir(ctx)
      const { code, stderr } = await runCli(ctx, ['video', 'A lighthouse at dawn', '--out', dir])
      expect(code, stderr).toBe(0)
      const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.mp4'))
      expect(files, 'the usage says `video "<prompt>" ... [--out DIR]`').toHaveLength(1)
      expect((await stat(join(dir, files[0]!))).size).toBeGreaterThan(1000)
    })
  })

  describe('signals', () => {
    it('sim --port 0: prints GATEWAY_BASE_URL and the key, serves, and exits 0 on SIGINT', async (ctx) => {
      const cli = startCli(ctx, ['sim', '--port', '0'])
      const [, url] = await cli.waitFor(/^GATEWAY_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)$/m, 'stdout')
      const [, key] = await cli.waitFor(/^GATEWAY_API_KEY=(\S+)$/m, 'stdout')
      const res = await fetch(`${url}/vendors/vendor-a/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', input: 'hi' }),
      })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { status: string }).status).toBe('completed')
      cli.child.kill('SIGINT')
      const { code, signal } = await cli.exit
      expect(signal).toBeNull()
      expect(code).toBe(0)
      await expect(fetch(`${url}/`)).rejects.toThrow() // the port is closed
    })

    it('Ctrl-C during video (embedded simulator): exit 130, "cancelled" on stderr, no URL', async (ctx) => {
      const cli = startCli(ctx, ['video', 'A slow render'])
      await cli.waitFor(/Task [0-9a-f-]{36}: pending/)
      cli.child.kill('SIGINT')
      const { code, stdout, stderr } = await cli.exit
      expect(code).toBe(130)
      expect(stderr).toMatch(/cancelled/)
      expect(stderr).not.toMatch(/completed/)
      expect(stdout).toBe('')
    })

    it('Ctrl-C during video (a separate gateway): exit 130 at once; the gateway gets no further request', async (ctx) => {
      const sim = await simulator(ctx, { timeScale: FROZEN })
      const cli = startCli(ctx, ['video', 'A slow render'], { env: envFor(sim) })
      await cli.waitFor(/Task [0-9a-f-]{36} created/)
      const sent = sim.requests.length
      const started = Date.now()
      cli.child.kill('SIGINT')
      const { code } = await cli.exit
      expect(code).toBe(130)
      expect(Date.now() - started).toBeLessThan(3_000)
      expect(sim.requests).toHaveLength(sent)
      expect(sim.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
    })
  })

  describe('with GATEWAY_BASE_URL and GATEWAY_API_KEY set', () => {
    it('respond uses that gateway (its request log shows the call), not an embedded simulator', async (ctx) => {
      const sim = await simulator(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['respond', 'hi'], { env: envFor(sim) })
      expect(code, stderr).toBe(0)
      expect(stderr).not.toMatch(EMBEDDED)
      expect(sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /vendors/vendor-a/v1/responses 200'])
      const expected = await firstValueFrom(createGateway({ baseUrl: sim.url, apiKey: sim.apiKey }).responses$({ model: 'gpt-4.1-mini', input: 'hi' }).pipe(outputText()))
      expect(stdout).toBe(`${expected}\n`)
    })

    it('task <endpoint> <id> follows a task of that gateway and prints its URLs', async (ctx) => {
      const sim = await simulator(ctx, { timeScale: FROZEN })
      const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey })
      const created = await firstValueFrom(gateway.createTask$(endpoints.i2iPreview, { prompt: 'a watercolour harbour' }))
      sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
      const { code, stdout, stderr } = await runCli(ctx, ['task', 'i2iPreview', created.taskId], { env: envFor(sim) })
      expect(code, stderr).toBe(0)
      const urls = stdout.trim().split('\n')
      expect(urls).toHaveLength(2)
      for (const url of urls) expect(url).toMatch(new RegExp(`^${sim.url}/files/${created.taskId}-\\d\\.png\\?expires=\\d+$`))
      expect(sim.requests.filter((r) => r.method === 'GET' && r.path === `${endpoints.i2iPreview.resultPath}/${created.taskId}`)).toHaveLength(1)
    })

    it('a wrong key: exit 1, HttpError 401 on stderr, the key nowhere in the output', async (ctx) => {
      const sim = await simulator(ctx)
      const key = 'sk-cli-wrong-8e1f0c2d4b'
      const { code, stdout, stderr } = await runCli(ctx, ['respond', 'hi'], { env: envFor(sim, key) })
      expect(code).toBe(1)
      expect(stderr).toMatch(/HttpError/)
      expect(stderr).toMatch(/401/)
      expect(stdout + stderr).not.toContain(key)
      expect(sim.requests).toHaveLength(1)
    })

    it('only one of the two set: says so and uses the embedded simulator', async (ctx) => {
      const sim = await simulator(ctx)
      const { code, stderr } = await runCli(ctx, ['respond', 'hi'], { env: envWith({ GATEWAY_BASE_URL: sim.url }) })
      expect(code).toBe(0)
      expect(stderr).toMatch(/set both GATEWAY_BASE_URL and GATEWAY_API_KEY/)
      expect(stderr).toMatch(EMBEDDED)
      expect(sim.requests).toHaveLength(0)
    })
  })
})
