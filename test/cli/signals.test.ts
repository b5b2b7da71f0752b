import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from './helpers.js'
import { STALLED_TASK, startHostileGateway } from './hostileGateway.js'

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
  it.for<[NodeJS.Signals, number]>([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ])('%s: the download is aborted, its partial file removed, exit %i', async ([signal, exitCode]) => {
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
    expect(await exit).toEqual({ code: exitCode, signal: null })
    expect(await readdir(out)).toEqual([])
    expect(stderr).toContain('rxgate: cancelled.')
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
