import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from './helpers.js'
import { STALLED_TASK, startHostileGateway } from './hostileGateway.js'

const hasScript = spawnSync('script', ['--version']).status === 0

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits until `done()` holds, looking every 20 ms: for a process outside this one, whose end nothing here is told of. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await delay(20)
}

// The CLI of this source tree (not a build of it) as a child process, so that real signals reach it.

let gateway: Awaited<ReturnType<typeof startHostileGateway>>
let work: string
let cli: string
beforeAll(async () => {
  gateway = await startHostileGateway()
  work = await mkdtemp(join(tmpdir(), 'rxgate-cli-'))
  cli = join(work, 'cli.mjs')
  await build({
    entryPoints: [join(ROOT, 'src/cli/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: cli,
    logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  })
}, 60_000)
afterAll(async () => {
  await gateway.close()
  await rm(work, { recursive: true, force: true })
})

describe('rxgate CLI: a signal that ends it during a download', () => {
  // After SIGHUP the process ends by that signal (a shell reports 129): its terminal may be gone, and a normal exit would reset it.
  it.for<[NodeJS.Signals, { code: number | null; signal: NodeJS.Signals | null }]>([
    ['SIGTERM', { code: 143, signal: null }],
    ['SIGHUP', { code: null, signal: 'SIGHUP' }],
  ])('%s: the download is aborted, its partial file removed, then it ends (%j)', async ([signal, ended]) => {
    const out = await mkdtemp(join(work, 'out-'))
    const child = spawn(process.execPath, [cli, 'task', 't2vSpark', STALLED_TASK, '--out', out], {
      env: { PATH: process.env.PATH, GATEWAY_BASE_URL: gateway.url, GATEWAY_API_KEY: 'sk-test-0123456789abcdef' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('close', (code, sig) => done({ code, signal: sig })))
    await new Promise<void>((started, failed) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
        if (/Downloading .*1,000 of 100,000 bytes/.test(stderr)) started()
      })
      void exit.then(() => failed(new Error(`exited before the download began: ${stderr}`)))
    })
    expect((await readdir(out)).some((name) => name.endsWith('.part'))).toBe(true)
    child.kill(signal)
    expect(await exit).toEqual(ended)
    expect(await readdir(out)).toEqual([])
    expect(stderr).toContain('rxgate: cancelled.')
  })

  // A real terminal (a pty from util-linux's `script`) that closes: Node must not exit normally on it (it aborts resetting a
  // terminal that is gone, leaving the partial file). stderr goes to a file, where an abort would leave its message.
  it.skipIf(!hasScript)('a terminal that really closes: the partial file is removed and the process ends without aborting', async () => {
    const out = await mkdtemp(join(work, 'tty-'))
    const pidFile = join(work, 'tty.pid')
    const errFile = join(work, 'tty.err')
    const command = `echo $$ > ${pidFile}; exec ${process.execPath} ${cli} task t2vSpark ${STALLED_TASK} --out ${out} 2>${errFile}`
    const terminal = spawn('script', ['-q', '-f', '-c', command, '/dev/null'], {
      env: { PATH: process.env.PATH, GATEWAY_BASE_URL: gateway.url, GATEWAY_API_KEY: 'sk-test-0123456789abcdef' },
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    await until(async () => (await readdir(out)).some((name) => name.endsWith('.part')))
    const pid = Number((await readFile(pidFile, 'utf8')).trim())
    terminal.kill('SIGKILL') // the terminal's master side closes: the CLI, leading its session, gets SIGHUP
    await until(() => !alive(pid))
    expect(await readdir(out)).toEqual([])
    expect(await readFile(errFile, 'utf8')).not.toMatch(/Assertion failed|ResetStdio|node::/)
  })

  it('rxgate sim stopped by SIGTERM (a service manager) closes and exits 0', async () => {
    const child = spawn(process.execPath, [cli, 'sim', '--port', '0'], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] })
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('close', (code, sig) => done({ code, signal: sig })))
    await new Promise<void>((listening) => {
      let stdout = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk
        if (stdout.includes('GATEWAY_API_KEY=')) listening()
      })
    })
    child.kill('SIGTERM')
    expect(await exit).toEqual({ code: 0, signal: null })
  })
})
