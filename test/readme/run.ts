import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './workspace.js'

/** How one run of a block ended. */
export interface BlockRun {
  readonly stdout: string
  readonly stderr: string
  readonly code: number | null
  /** Set when the run passed its time limit and was killed. */
  readonly timedOut: boolean
  readonly ms: number
}

/** Preloaded into every run: a server a block starts listens on 127.0.0.1 only. */
const LOOPBACK = pathToFileURL(join(ROOT, 'test/readme/loopback.mjs')).href

/**
 * Runs `node <file>` in `cwd` with `env` added to this process's
 * environment, killing it (and reporting `timedOut`) after `limitMs`, or at
 * once when `signal` aborts.
 */
export function runNode(file: string, { cwd, env, limitMs, signal }: { cwd: string; env: Record<string, string>; limitMs: number; signal: AbortSignal }): Promise<BlockRun> {
  const started = Date.now()
  if (signal.aborted) return Promise.resolve({ stdout: '', stderr: 'not run: the test ended first', code: null, timedOut: false, ms: 0 })
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env }
  // The test runner's own loader hooks have no business in a user's program.
  delete childEnv.NODE_OPTIONS
  let stdout = ''
  let stderr = ''
  const child = spawn(process.execPath, ['--import', LOOPBACK, file], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' })
  child.on('error', (error) => (stderr += String(error)))
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, limitMs)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ stdout, stderr, code, timedOut, ms: Date.now() - started })
    })
  })
}

/** Wraps `task` so that at most `limit` of its calls run at once; the others wait their turn, in call order. */
export function limited<A extends unknown[], T>(limit: number, task: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let running = 0
  const queue: (() => void)[] = []
  return async (...args) => {
    if (running >= limit) await new Promise<void>((resolve) => queue.push(resolve))
    else running++
    try {
      return await task(...args)
    } finally {
      const next = queue.shift()
      if (next) next()
      else running--
    }
  }
}
