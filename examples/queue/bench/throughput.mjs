// Throughput with 1, 2 and 4 worker processes against the simulator's fast
// clock (a render takes 1.5 s), on a real Redis, without faults or kills.
// Each worker: 8 jobs at once, at most 8 gateway requests in flight, polls
// every 250 ms. Prints jobs per minute for each count.
//
//   BENCH_JOBS_PER_WORKER=48 npm run bench
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Queue } from 'bullmq'
import { startSimulator } from 'rxgate/sim'
import { enqueueRenders, sampleRenders } from '../src/producer.mjs'
import { redisConnection } from '../src/redis.mjs'
import { startRedis } from '../test/redisServer.mjs'
import { workerPool } from '../test/workers.mjs'

const PER_WORKER = Number(process.env.BENCH_JOBS_PER_WORKER ?? 48)
const tmp = await mkdtemp(join(tmpdir(), 'rxgate-bench-'))
let redis
let workers
process.on('exit', () => {
  workers?.killAll()
  redis?.stop()
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

redis = await startRedis(tmp)
const sim = await startSimulator({ timeScale: 'fast' })
const connection = redisConnection(redis.socket)
console.log(`${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, simulator 'fast' (400 ms pending + 1,100 ms processing)`)
try {
  for (const count of [1, 2, 4]) {
    const queueName = `bench-${count}`
    const queue = new Queue(queueName, { connection })
    workers = workerPool(
      {
        ...process.env,
        REDIS_URL: redis.socket,
        QUEUE_NAME: queueName,
        GATEWAY_BASE_URL: sim.url,
        GATEWAY_API_KEY: sim.apiKey,
        DOWNLOAD_ALLOW_HOSTS: sim.url,
        RESULTS_DIR: join(tmp, queueName),
        TASK_POLL_MS: '250',
        WORKER_CONCURRENCY: '8',
        GATEWAY_MAX_CONCURRENCY: '8',
      },
      join(tmp, 'workers.log'),
    )
    await Promise.all(Array.from({ length: count }, () => workers.start()))
    const jobs = PER_WORKER * count
    const started = performance.now()
    await enqueueRenders(queue, sampleRenders(jobs), { attempts: 5, backoff: { type: 'exponential', delay: 2_000 } })
    for (;;) {
      const { completed, failed } = await queue.getJobCounts('completed', 'failed')
      if (failed > 0) throw new Error(`${failed} jobs failed; see ${join(tmp, 'workers.log')}`)
      if (completed >= jobs) break
      await sleep(50)
    }
    const seconds = (performance.now() - started) / 1000
    console.log(`${count} worker${count > 1 ? 's' : ''}: ${jobs} jobs in ${seconds.toFixed(1)} s = ${Math.round((jobs / seconds) * 60)} jobs/min`)
    await Promise.all([...workers.living.keys()].map((name) => workers.kill(name, 'SIGTERM')))
    await workers.close()
    await queue.close()
  }
} finally {
  await connection.quit()
  await sim.close()
  redis.stop()
  await rm(tmp, { recursive: true, force: true })
}
