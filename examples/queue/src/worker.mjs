// A render worker: run one (or several) on every machine. Each takes up to
// WORKER_CONCURRENCY jobs at once from the queue in Redis, and sends at most
// GATEWAY_MAX_CONCURRENCY requests to the gateway at once.
//
//   REDIS_URL=redis://queue:6379 GATEWAY_BASE_URL=https://… GATEWAY_API_KEY=… node src/worker.mjs
import { Worker } from 'bullmq'
import { createClient } from 'rxgate'
import { redisConnection } from './redis.mjs'
import { renderProcessor } from './render.mjs'
import { settingsFrom } from './settings.mjs'

const settings = settingsFrom(process.env)
if (!settings.gateway.baseUrl || !settings.gateway.apiKey) {
  console.error('Set GATEWAY_BASE_URL and GATEWAY_API_KEY.')
  process.exit(2)
}
const client = createClient({
  baseUrl: settings.gateway.baseUrl,
  apiKey: settings.gateway.apiKey,
  // The gateway honours Idempotency-Key: a creation whose outcome is unknown is sent again with its key.
  idempotentCreate: true,
  maxConcurrency: settings.gateway.maxConcurrency,
  ...(settings.gateway.taskPoll ? { taskPoll: settings.gateway.taskPoll } : {}),
})

const shutdown = new AbortController()
const connection = redisConnection(settings.redis)
const { name, ...workerOptions } = settings.worker
const worker = new Worker(
  settings.queueName,
  renderProcessor({ client, resultsDir: settings.resultsDir, allowHosts: settings.downloadAllowHosts, slowLinkMs: settings.slowLinkMs, worker: name, shutdown: shutdown.signal }),
  { connection, name, ...workerOptions },
)
// SIGTERM (a deploy, a scale-down): stop taking jobs, unsubscribe the steps in
// flight (their requests are aborted, a partial download stays as a resume
// point), put those jobs back in the queue, then close the connections.
let stopping = false
const stop = async (signal) => {
  if (stopping) return
  stopping = true
  console.log(`${name} ${signal}: stopping`)
  // A step that ignores the abort must not keep the machine from shutting down.
  setTimeout(() => process.exit(1), 30_000).unref()
  const closed = worker.close()
  shutdown.abort(new Error(`${name} is shutting down`))
  await closed
  await connection.quit()
  console.log(`${name} stopped`)
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))

worker.on('error', (error) => console.error(`${name}: ${error.message}`))
// A lock not renewed in time (a long pause, Redis out of reach): another worker may take the job while this one goes on.
worker.on('lockRenewalFailed', (ids) => console.error(`${name}: could not renew the lock of jobs ${ids.join(', ')}`))
worker.on('failed', (job, error) => console.error(`${name}: job ${job?.id} attempt ${job?.attemptsMade} failed: ${error.message}`))
await worker.waitUntilReady()
console.log(`${name} ready`)

