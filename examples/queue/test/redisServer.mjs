import { spawn } from 'node:child_process'
import { join } from 'node:path'

/**
 * Starts a throwaway redis-server listening only on a unix socket in `dir`
 * (no TCP port to collide with), without persistence. Resolves once it
 * accepts connections; `stop()` kills it.
 *
 * @example
 * const redis = await startRedis(tmp)
 * process.env.REDIS_URL = redis.socket
 */
export function startRedis(dir) {
  const socket = join(dir, 'redis.sock')
  const args = ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir]
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`redis-server did not start in 10 s:\n${output}`)), 10_000)
    const fail = (error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    child.on('error', (error) =>
      fail(error.code === 'ENOENT' ? new Error('redis-server is not installed (Debian: apt-get install redis-server)') : error),
    )
    child.on('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)))
    child.stdout.on('data', (chunk) => {
      output += chunk
      if (/ready to accept connections/i.test(output)) {
        clearTimeout(timer)
        child.removeAllListeners('exit')
        resolve({ socket, pid: child.pid, stop: () => child.kill('SIGKILL') })
      }
    })
  })
}
