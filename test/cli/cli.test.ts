import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createGateway, endpoints, outputText } from '../../src/index.js'
import type { Simulator } from '../../src/sim/index.js'
import { envWith, runCli, simulator, startCli, type Ctx } from './helpers.js'

const COMMANDS = ['sim', 'respond', 'video', 'task', 'bot', 'help'] as const
const EMBEDDED = /embedded gateway simulator/
const UUID = '[0-9a-f-]{36}'
/** A full stop doubled, or two with only spaces between: what single punctuation rules out (an ellipsis is one character). */
const DOUBLED = /\.\s*\./
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

    it('rxgate help prints the usage on stdout and exits 0; help <command> prints that command\'s', async (ctx) => {
      const [main, video, nope] = await Promise.all([runCli(ctx, ['help']), runCli(ctx, ['help', 'video']), runCli(ctx, ['help', 'nope'])])
      expect(main.code).toBe(0)
      expect(main.stdout).toMatch(/Usage: rxgate <command>/)
      expect(main.stderr).toBe('')
      expect(video.code).toBe(0)
      expect(video.stdout).toMatch(/^Usage: rxgate video\b/)
      expect(nope.code).toBe(2)
      expect(nope.stderr).toMatch(/unknown command "nope"/)
    })

    it('--size is documented as W*H (WxH accepted), --audio and --poll-ms are listed', async (ctx) => {
      const [main, video] = await Promise.all([runCli(ctx, ['help']), runCli(ctx, ['help', 'video'])])
      expect(main.stdout).toContain('--size W*H')
      expect(main.stdout).not.toContain('WxH]')
      expect(video.stdout).toMatch(/1280\*720 \(1280x720 works too\)/)
      for (const flag of ['--audio URL', '--poll-ms']) expect(main.stdout).toContain(flag)
    })

    it('every help text and usage message is punctuated once', async (ctx) => {
      const runs = await Promise.all([['help'], ...COMMANDS.map((c) => ['help', c]), ['frobnicate'], ['task', 't2vSpark'], ['sim', '--port', 'x'], ['video', 'x', '--poll-ms', '0']].map((args) => runCli(ctx, args)))
      for (const { stdout, stderr } of runs) expect(stdout + stderr).not.toMatch(DOUBLED)
    })

    it('--poll-ms that is not a positive whole number: exit 2 naming it', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['video', 'x', '--poll-ms', 'soon'])
      expect(code).toBe(2)
      expect(stderr).toMatch(/--poll-ms must be/)
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

    it('Ctrl-C during video (embedded simulator): exit 130, "cancelled", the task id and the follow command, and that the simulator ends with rxgate', async (ctx) => {
      const cli = startCli(ctx, ['video', 'A slow render'])
      const [, id] = await cli.waitFor(new RegExp(`Task (${UUID}): pending`))
      cli.child.kill('SIGINT')
      const { code, stdout, stderr } = await cli.exit
      expect(code).toBe(130)
      expect(stderr).toMatch(/cancelled/)
      expect(stderr).not.toMatch(/completed/)
      expect(stderr).toContain(`rxgate task t2vSpark ${id}`)
      expect(stderr).toMatch(/embedded simulator, which stops with rxgate/)
      expect(stderr).not.toMatch(DOUBLED)
      expect(stdout).toBe('')
    })

    it('Ctrl-C during video (a separate gateway): exit 130 at once; the gateway gets no further request', async (ctx) => {
      const sim = await simulator(ctx, { timeScale: FROZEN })
      const cli = startCli(ctx, ['video', 'A slow render'], { env: envFor(sim) })
      const [, id] = await cli.waitFor(new RegExp(`Task (${UUID}) created`))
      const sent = sim.requests.length
      const started = Date.now()
      cli.child.kill('SIGINT')
      const { code, stderr } = await cli.exit
      expect(code).toBe(130)
      expect(Date.now() - started).toBeLessThan(3_000)
      expect(sim.requests).toHaveLength(sent)
      expect(sim.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
      // It says the task goes on, and the command to follow it, which works.
      expect(stderr).toMatch(new RegExp(`task ${id} goes on at the gateway`))
      const follow = new RegExp(`^  (rxgate task t2vSpark ${id})$`, 'm').exec(stderr)?.[1]
      expect(follow, stderr).toBeDefined()
      sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
      const followed = await runCli(ctx, follow!.split(' ').slice(1), { env: envFor(sim) })
      expect(followed.code, followed.stderr).toBe(0)
      expect(followed.stdout.trim()).toMatch(VIDEO_URL)
    })

    it('Ctrl-C while following with rxgate task: the same hint, with the endpoint as typed', async (ctx) => {
      const sim = await simulator(ctx, { timeScale: FROZEN })
      const created = await firstValueFrom(createGateway({ baseUrl: sim.url, apiKey: sim.apiKey }).createTask$(endpoints.i2iPreview, { prompt: 'a harbour' }))
      const cli = startCli(ctx, ['task', 'i2iPreview', created.taskId], { env: envFor(sim) })
      await cli.waitFor(new RegExp(`Task ${created.taskId}: pending`))
      cli.child.kill('SIGINT')
      const { code, stderr } = await cli.exit
      expect(code).toBe(130)
      expect(stderr).toContain(`rxgate task i2iPreview ${created.taskId}`)
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

    it('a base URL without a key: exit 2 with one line naming the key and --sim; nothing sent, no simulator', async (ctx) => {
      const sim = await simulator(ctx)
      for (const key of [undefined, '', '   ']) {
        const env = envWith({ GATEWAY_BASE_URL: sim.url, ...(key === undefined ? {} : { GATEWAY_API_KEY: key }) })
        const { code, stdout, stderr } = await runCli(ctx, ['respond', 'hi'], { env })
        expect(code).toBe(2)
        expect(stdout).toBe('')
        expect(stderr.trim().split('\n')).toHaveLength(1)
        expect(stderr).toMatch(/GATEWAY_API_KEY/)
        expect(stderr).toMatch(/--sim/)
        expect(stderr).not.toMatch(EMBEDDED)
      }
      expect(sim.requests).toHaveLength(0)
    })

    it('a key without a base URL: exit 2 too', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['respond', 'hi'], { env: envWith({ GATEWAY_API_KEY: 'sk-something-long' }) })
      expect(code).toBe(2)
      expect(stderr).toMatch(/GATEWAY_BASE_URL/)
      expect(stderr).not.toContain('sk-something-long')
    })

    it('--sim uses an embedded simulator whatever the environment says', async (ctx) => {
      const sim = await simulator(ctx)
      const { code, stderr } = await runCli(ctx, ['respond', 'hi', '--sim'], { env: envWith({ GATEWAY_BASE_URL: sim.url }) })
      expect(code, stderr).toBe(0)
      expect(stderr).toMatch(EMBEDDED)
      expect(sim.requests).toHaveLength(0)
    })

    it('GATEWAY_BASE_URL=not-a-url: exit 2 with one line, no stack trace', async (ctx) => {
      for (const bad of ['not-a-url', 'ftp://example.com', 'http://']) {
        const { code, stdout, stderr } = await runCli(ctx, ['respond', 'hi'], { env: envWith({ GATEWAY_BASE_URL: bad, GATEWAY_API_KEY: 'k' }) })
        expect(code).toBe(2)
        expect(stdout).toBe('')
        expect(stderr.trim().split('\n'), stderr).toHaveLength(1)
        expect(stderr).toMatch(/^rxgate: GATEWAY_BASE_URL must be an http:\/\/ or https:\/\/ URL/)
        expect(stderr).not.toMatch(/^\s+at /m)
      }
    })
  })

  describe('--json: one JSON document on stdout, progress on stderr', () => {
    /** stdout as the one JSON document it must be: one line, parsed. */
    const oneDocument = (stdout: string) => {
      expect(stdout.endsWith('\n')).toBe(true)
      expect(stdout.trimEnd().split('\n'), stdout).toHaveLength(1)
      return JSON.parse(stdout) as Record<string, unknown>
    }

    it('bot --json: the streamed prompt goes to stderr; stdout is the result alone', async (ctx) => {
      const dir = await tempDir(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['bot', '--json', '--out', dir])
      expect(code, stderr).toBe(0)
      const result = oneDocument(stdout)
      expect(Object.keys(result).sort()).toEqual(['bytes', 'file', 'prompt', 'taskId', 'urls'])
      expect(stderr).toContain('Writing a video prompt:')
      expect(stderr.replace(/\s+/g, ' ')).toContain(String(result.prompt).replace(/\s+/g, ' ').slice(0, 40))
    })

    it('video --json: the completed task, once (no created/pending lines on stdout)', async (ctx) => {
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'A red kite', '--json'])
      expect(code, stderr).toBe(0)
      const done = oneDocument(stdout)
      expect(done).toMatchObject({ type: 'completed' })
      expect((done.urls as string[])[0]).toMatch(VIDEO_URL)
      expect(stderr).toMatch(/created/)
    })

    it('video --json --out DIR: the document names the saved file', async (ctx) => {
      const dir = await tempDir(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'A red kite', '--json', '--out', dir])
      expect(code, stderr).toBe(0)
      const done = oneDocument(stdout)
      expect(done.file).toBe(join(dir, `${String(done.taskId)}.mp4`))
      expect(done.bytes).toBe((await stat(String(done.file))).size)
    })

    it('task --json against a gateway: one document', async (ctx) => {
      const sim = await simulator(ctx, { timeScale: FROZEN })
      const created = await firstValueFrom(createGateway({ baseUrl: sim.url, apiKey: sim.apiKey }).createTask$(endpoints.i2iPreview, { prompt: 'a harbour' }))
      sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
      const { code, stdout } = await runCli(ctx, ['task', 'i2iPreview', created.taskId, '--json'], { env: envFor(sim) })
      expect(code).toBe(0)
      expect(oneDocument(stdout)).toMatchObject({ type: 'completed', taskId: created.taskId })
    })

    it('sim --json: one document with the two variables', async (ctx) => {
      const cli = startCli(ctx, ['sim', '--json'])
      await cli.waitFor(/\n/, 'stdout')
      const vars = oneDocument(cli.stdout())
      expect(vars.GATEWAY_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(vars.GATEWAY_API_KEY).toEqual(expect.any(String))
      cli.child.kill('SIGINT')
      expect((await cli.exit).code).toBe(0)
    })
  })

  describe('poll timing and the embedded simulator\'s URLs', () => {
    it('the embedded simulator shows every step: pending, processing, completed', async (ctx) => {
      const { code, stderr } = await runCli(ctx, ['video', 'A red kite'])
      expect(code).toBe(0)
      const id = new RegExp(`Task (${UUID}) created`).exec(stderr)?.[1]
      for (const step of [': pending', ': processing', ' completed']) expect(stderr).toContain(`Task ${id}${step}`)
    })

    it('--poll-ms against a fast gateway (rxgate sim): every step shows, long before the 10 s first poll of a real render', async (ctx) => {
      const sim = await simulator(ctx)
      const started = Date.now()
      const { code, stderr } = await runCli(ctx, ['video', 'A red kite', '--poll-ms', '100'], { env: envFor(sim) })
      expect(code, stderr).toBe(0)
      expect(Date.now() - started).toBeLessThan(8_000)
      const id = new RegExp(`Task (${UUID}) created`).exec(stderr)?.[1]
      for (const step of [': pending', ': processing', ' completed']) expect(stderr).toContain(`Task ${id}${step}`)
      expect(sim.requests.filter((r) => r.method === 'GET').length).toBeGreaterThanOrEqual(3)
    })

    it('rxgate sim says how to see every step', async (ctx) => {
      const cli = startCli(ctx, ['sim'])
      await cli.waitFor(/--poll-ms 200/)
      cli.child.kill('SIGINT')
      await cli.exit
    })

    it('URLs of the embedded simulator come with a note that they end with rxgate, pointing to rxgate sim', async (ctx) => {
      const sim = await simulator(ctx)
      const [embedded, real] = await Promise.all([runCli(ctx, ['video', 'A red kite']), runCli(ctx, ['video', 'A red kite', '--poll-ms', '100'], { env: envFor(sim) })])
      expect(embedded.stderr).toMatch(/stop working when rxgate exits/)
      expect(embedded.stderr).toMatch(/rxgate sim/)
      expect(embedded.stderr).toMatch(/GATEWAY_BASE_URL and GATEWAY_API_KEY/)
      expect(real.code, real.stderr).toBe(0)
      expect(real.stderr).not.toMatch(/stop working/)
    })
  })

  describe('video --out: a progress bar, a resumed download', () => {
    it('draws the download\'s progress on stderr and saves the bytes the gateway serves', async (ctx) => {
      const sim = await simulator(ctx)
      const dir = await tempDir(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'A red kite', '--out', dir, '--poll-ms', '100'], { env: envFor(sim) })
      expect(code, stderr).toBe(0)
      const url = stdout.trim()
      const id = new RegExp(`files/(${UUID})\\.mp4`).exec(url)?.[1]
      expect(stderr).toContain(`Downloading ${join(dir, `${id}.mp4`)} [`)
      expect(stderr).toMatch(/\[#+\] 100% \(2,899 of 2,899 bytes\)/)
      const source = Buffer.from(await (await fetch(url)).arrayBuffer())
      expect((await readFile(join(dir, `${id}.mp4`))).equals(source)).toBe(true)
    })

    it('a download dropped halfway is resumed with Range; the file equals the source', async (ctx) => {
      const sim = await simulator(ctx, { faults: { dropDownloadAt: { bytes: 1_400 } } })
      const dir = await tempDir(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'A red kite', '--out', dir, '--poll-ms', '100'], { env: envFor(sim) })
      expect(code, stderr).toBe(0)
      const files = sim.requests.filter((r) => r.path.startsWith('/files/'))
      expect(files.map((r) => r.status)).toEqual([200, 206, 206])
      sim.setFaults({})
      const source = Buffer.from(await (await fetch(stdout.trim())).arrayBuffer())
      const saved = (await readdir(dir)).filter((f) => f.endsWith('.mp4'))
      expect(saved).toHaveLength(1)
      expect((await readFile(join(dir, saved[0]!))).equals(source)).toBe(true)
    })
  })

  describe('video --audio URL: the preflight', () => {
    it('shows what it found before the task is created', async (ctx) => {
      const sim = await simulator(ctx)
      const { code, stderr } = await runCli(ctx, ['video', 'A red kite', '--audio', sim.sampleUrl('tone-5s.wav'), '--poll-ms', '100'], { env: envFor(sim) })
      expect(code, stderr).toBe(0)
      const checked = stderr.indexOf('Audio checked: WAV, 5.0 s, 80,044 bytes')
      expect(checked, stderr).toBeGreaterThanOrEqual(0)
      expect(checked).toBeLessThan(stderr.search(/Task \S+ created/))
      expect(sim.tasks).toHaveLength(1)
    })

    it('audio that breaks a rule: exit 2 naming audio_url, and no task is created', async (ctx) => {
      const sim = await simulator(ctx)
      const { code, stdout, stderr } = await runCli(ctx, ['video', 'A red kite', '--audio', sim.sampleUrl('tone-31s.wav')], { env: envFor(sim) })
      expect(code).toBe(2)
      expect(stderr).toMatch(/audio_url: audio is 31\.0 s/)
      expect(stderr).not.toMatch(/created/)
      expect(stdout).toBe('')
      expect(sim.tasks).toHaveLength(0)
      expect(sim.requests.filter((r) => r.method === 'POST')).toHaveLength(0)
    })
  })

  describe('messages are punctuated once', () => {
    it('a 401, a 404 and a failed task: each one line, one stop each', async (ctx) => {
      const sim = await simulator(ctx)
      const runs = await Promise.all([
        runCli(ctx, ['respond', 'hi'], { env: envFor(sim, 'sk-cli-wrong-8e1f0c2d4b') }),
        runCli(ctx, ['task', 'videoOne', randomUUID()], { env: envFor(sim) }),
        runCli(ctx, ['video', 'boom [fail:3001]']),
      ])
      for (const { code, stderr } of runs) {
        expect(code).toBe(1)
        const line = stderr.split('\n').find((l) => /^rxgate: \w+Error: /.test(l))
        expect(line, stderr).toBeDefined()
        expect(line).toMatch(/[.)]$/)
        expect(line).not.toMatch(DOUBLED)
      }
      expect(runs[1]!.stderr).not.toMatch(/follow it again with: rxgate/) // a task the gateway does not know is not followed again
    })
  })
})
