import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, type TestContext } from 'vitest'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const CLI = resolve(ROOT, 'dist/cli.js')

// `npm test` builds dist before vitest; build it here when it is missing (e.g. `npx vitest run test/cli`).
beforeAll(() => {
  if (!existsSync(CLI)) execFileSync('npx', ['tsup', '--silent'], { cwd: ROOT, stdio: 'inherit', timeout: 120_000 })
}, 130_000)

/** What a (concurrent) test gives its helpers: where to register its cleanup. */
export type Ctx = Pick<TestContext, 'onTestFinished'>

/** Starts a simulator that is closed when the test finishes. */
export async function simulator(ctx: Ctx, options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(options)
  ctx.onTestFinished(() => sim.close())
  return sim
}

/** The environment of the test process without the gateway variables (so the CLI uses its embedded simulator), plus `extra`. */
export function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env.GATEWAY_BASE_URL
  delete env.GATEWAY_API_KEY
  return { ...env, ...extra }
}

/** A running `node dist/cli.js …`: its output so far, and its end. */
export interface Cli {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves once stdout or stderr (whichever `stream` names) matches. */
  readonly waitFor: (pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number) => Promise<RegExpMatchArray>
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

/** Starts the CLI as a child process; it is killed when the test finishes if it is still running. */
export function startCli(ctx: Ctx, args: string[], { env = envWith(), cwd = ROOT }: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Cli {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  ctx.onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let out = ''
  let err = ''
  const listeners = new Set<() => void>()
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    listeners.forEach((l) => l())
  })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk
    listeners.forEach((l) => l())
  })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code, signal) => done({ code, signal, stdout: out, stderr: err })),
  )
  const waitFor = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stderr', timeoutMs = 10_000) =>
    new Promise<RegExpMatchArray>((resolveMatch, reject) => {
      const check = () => {
        const match = (stream === 'stdout' ? out : err).match(pattern)
        if (!match) return
        cleanup()
        resolveMatch(match)
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms; stdout: ${out}\nstderr: ${err}`))
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        listeners.delete(check)
      }
      listeners.add(check)
      check()
    })
  return { child, stdout: () => out, stderr: () => err, waitFor, exit }
}

/** Runs the CLI to its end. */
export function runCli(ctx: Ctx, args: string[], options?: { env?: NodeJS.ProcessEnv; cwd?: string }) {
  return startCli(ctx, args, options).exit
}
