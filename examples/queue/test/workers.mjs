import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { fileURLToPath } from 'node:url'

const WORKER = fileURLToPath(new URL('../src/worker.mjs', import.meta.url))

/**
 * Worker processes (`src/worker.mjs`) started and stopped by a test: each
 * with `env` and its own name, its output appended to `logFile`. `start()`
 * resolves once the worker is connected to Redis; `kill(name, signal)`
 * resolves with its exit code or signal; `killAll()` SIGKILLs the living,
 * at once and synchronously (it is called from `process.on('exit')`).
 *
 * @example
 * const workers = workerPool({ ...process.env, REDIS_URL }, 'workers.log')
 * const name = await workers.start()
 */
export function workerPool(env, logFile) {
  const log = createWriteStream(logFile, { flags: 'a' })
  const living = new Map()
  let count = 0
  return {
    living,
    start() {
      const name = `w${++count}`
      const child = spawn(process.execPath, [WORKER], { env: { ...env, WORKER_NAME: name }, stdio: ['ignore', 'pipe', 'pipe'] })
      const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)))
      const entry = { name, child, exited, ready: false }
      living.set(name, entry)
      exited.then(() => living.delete(name))
      child.stderr.on('data', (chunk) => log.write(chunk))
      return new Promise((resolve, reject) => {
        let seen = ''
        child.stdout.on('data', (chunk) => {
          log.write(chunk)
          seen += chunk
          if (!entry.ready && seen.includes(`${name} ready`)) {
            entry.ready = true
            resolve(name)
          }
        })
        exited.then((how) => reject(new Error(`${name} exited (${how}) before it was ready; see ${logFile}`)))
      })
    },
    async kill(name, signal) {
      const entry = living.get(name)
      if (!entry) return undefined
      entry.child.kill(signal)
      return entry.exited
    },
    killAll() {
      for (const { child } of living.values()) child.kill('SIGKILL')
    },
    close: () => new Promise((resolve) => log.end(resolve)),
  }
}
