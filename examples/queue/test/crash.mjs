// The crash test: ≥ 200 renders on a real Redis, 4 worker processes, and
// workers SIGKILLed at seeded random moments (mid-creation, mid-follow,
// mid-download) while new ones start. It passes when every job completed,
// the simulator made exactly one task per job, and every saved file is the
// file the simulator serves. Prints one line; exits 1 otherwise.
//
//   CRASH_SEED=7 CRASH_JOBS=200 CRASH_WORKERS=4 CRASH_MAX_KILLS=40 npm test     (CRASH_VERBOSE=1: details on stderr)
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Queue, QueueEvents } from 'bullmq'
import { startSimulator } from 'rxgate/sim'
import { enqueueRenders, sampleRenders } from '../src/producer.mjs'
import { redisConnection } from '../src/redis.mjs'
import { startRedis } from './redisServer.mjs'
import { workerPool } from './workers.mjs'

const SEED = Number(process.env.CRASH_SEED ?? 7)
const JOBS = Number(process.env.CRASH_JOBS ?? 200)
const WORKERS = Number(process.env.CRASH_WORKERS ?? 4)
const MAX_KILLS = Number(process.env.CRASH_MAX_KILLS ?? 40)
const DEADLINE_MS = Number(process.env.CRASH_DEADLINE_MS ?? 210_000)
const VERBOSE = process.env.CRASH_VERBOSE === '1'
const STAGES = ['creating', 'following', 'downloading']

/** mulberry32: a small seeded generator, so that a run's kills can be replayed. */
function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

const started = Date.now()
const tmp = await mkdtemp(join(tmpdir(), 'rxgate-queue-'))
const resultsDir = join(tmp, 'results')
let redis
let sim
let workers
const cleanups = []
// Whatever happens (an exception, Ctrl-C, a failed check), no process is left behind.
process.on('exit', () => {
  workers?.killAll()
  redis?.stop()
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

let failed = true
try {
  failed = !(await run())
} catch (error) {
  console.error(error)
} finally {
  workers?.killAll()
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
  await sim?.close()
  redis?.stop()
  if (failed) console.error(`logs kept in ${tmp}`)
  else await rm(tmp, { recursive: true, force: true })
}
// Let the summary line reach a pipe before the process ends.
await new Promise((resolve) => process.stdout.write('', resolve))
process.exit(failed ? 1 : 0)

async function run() {
  const rand = random(SEED)
  redis = await startRedis(tmp)
  // Faults on: 5xx on any gateway request, creations that are made but whose reply is lost or cut,
  // a seeded sprinkle of everything else (429s, bad poll replies, resets), and every download cut every 1,000 bytes.
  sim = await startSimulator({
    faults: {
      latencyMs: 20,
      serverErrors: { every: 9 },
      resetAfterCreate: { every: 7 },
      garbledCreateReply: { every: 11 },
      dropDownloadAt: { bytes: 1_000 },
      chaos: { rate: 0.03, seed: SEED },
    },
  })
  const env = {
    ...process.env,
    REDIS_URL: redis.socket,
    QUEUE_NAME: 'renders',
    GATEWAY_BASE_URL: sim.url,
    GATEWAY_API_KEY: sim.apiKey,
    DOWNLOAD_ALLOW_HOSTS: sim.url,
    RESULTS_DIR: resultsDir,
    TASK_POLL_MS: '250',
    WORKER_CONCURRENCY: '8',
    GATEWAY_MAX_CONCURRENCY: '8',
    // A dead worker's jobs are back in the queue within about 4 s instead of 30 s.
    LOCK_DURATION_MS: '3000',
    STALLED_INTERVAL_MS: '1000',
    // A kill every second or so, across 4 workers, is far more than any fleet sees: a job may be in a killed worker many times.
    MAX_STALLED_COUNT: '20',
    LIMIT_JOBS: '50',
    JOB_BACKOFF_MS: '500',
    SLOW_LINK_MS: '40',
  }
  const connection = redisConnection(redis.socket)
  const queue = new Queue('renders', { connection })
  const events = new QueueEvents('renders', { connection: { path: redis.socket } })
  cleanups.push(() => connection.quit(), () => queue.close(), () => events.close())
  await events.waitUntilReady()

  // What each job is doing, and where, as its progress says.
  const doing = new Map()
  const failures = []
  events.on('progress', ({ jobId, data }) => doing.set(jobId, { ...data, seen: Date.now() }))
  events.on('completed', ({ jobId }) => doing.delete(jobId))
  events.on('failed', ({ jobId, failedReason }) => failures.push(`${jobId}: ${failedReason}`))
  const stalls = []
  const stallCount = new Map()
  events.on('stalled', ({ jobId }) => {
    stalls.push({ jobId, at: Date.now() - started })
    stallCount.set(jobId, (stallCount.get(jobId) ?? 0) + 1)
  })

  workers = workerPool(env, join(tmp, 'workers.log'))
  await Promise.all(Array.from({ length: WORKERS }, () => workers.start()))
  await enqueueRenders(queue, sampleRenders(JOBS), { attempts: 5, backoff: { type: 'exponential', delay: 500 } })

  const killed = { creating: 0, following: 0, downloading: 0, any: 0 }
  let kills = 0
  const killLog = []
  let graceful = 0
  const problems = []
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed')
    if (counts.completed + counts.failed >= JOBS) break
    if (Date.now() - started > DEADLINE_MS) {
      problems.push(`deadline: ${counts.completed} of ${JOBS} completed after ${DEADLINE_MS / 1000} s`)
      break
    }
    await sleep(600 + rand() * 1000)
    if (kills >= MAX_KILLS) continue
    // Aim at a stage: wait for a job to enter it, and kill its worker right then.
    const stage = [...STAGES, 'any'][Math.floor(rand() * 4)]
    let target
    for (let waited = 0; !target && waited < 2_000; waited += 20) {
      const ready = [...workers.living.values()].filter((w) => w.ready).map((w) => w.name)
      if (stage === 'any') target = ready[Math.floor(rand() * ready.length)]
      // A job just picked up enters a stage again at once: chasing it would kill the same jobs over and over, as no crash does.
      else target = [...doing].find(([id, d]) => d.stage === stage && Date.now() - d.seen < 100 && ready.includes(d.worker) && (stallCount.get(id) ?? 0) < 3)?.[1].worker
      if (!target) await sleep(20)
    }
    if (!target) continue
    // One stop in ten is a SIGTERM: the worker must put its jobs back and exit 0 on its own.
    if (rand() < 0.1) {
      const how = await workers.kill(target, 'SIGTERM')
      if (how !== 0) problems.push(`${target} did not shut down cleanly on SIGTERM (${how})`)
      graceful++
    } else {
      await workers.kill(target, 'SIGKILL')
      killLog.push({ at: Date.now() - started, target })
      killed[stage]++
      kills++
    }
    // The replacement starts in the background: the next kill may come before it is ready.
    workers.start().catch(() => {})
  }

  // The checks: every job done, one task per job, every file the one the simulator serves.
  const jobs = await queue.getJobs(['completed'], 0, -1)
  const failedJobs = await queue.getJobs(['failed'], 0, -1)
  for (const job of failedJobs) problems.push(`job ${job.id} failed: ${job.failedReason}`)
  sim.setFaults({}) // the simulator's own copy of each file is read without faults
  const everyJob = await queue.getJobs(['completed', 'failed', 'active', 'wait', 'delayed', 'prioritized', 'paused'], 0, -1)
  const keys = new Map(everyJob.map((job) => [job.data.state?.key, job]))
  const tasksByKey = new Map()
  for (const task of sim.tasks) tasksByKey.set(task.idempotencyKey, [...(tasksByKey.get(task.idempotencyKey) ?? []), task])
  let twice = 0
  for (const [key, tasks] of tasksByKey) {
    if (!keys.has(key)) {
      twice += tasks.length
      problems.push(`task ${tasks[0].id} belongs to no job (key ${key})`)
    } else if (tasks.length > 1) {
      twice += tasks.length - 1
      problems.push(`key ${key} made ${tasks.length} tasks`)
    }
  }
  const served = new Map()
  for (const job of jobs) {
    const result = job.returnvalue ?? {}
    const [task] = tasksByKey.get(job.data.state?.key) ?? []
    if (!task) {
      problems.push(`job ${job.id}: the simulator has no task for its key`)
      continue
    }
    if (result.taskId !== task.id) problems.push(`job ${job.id}: returned task ${result.taskId}, made ${task.id}`)
    const original = (served.has(task.id) ? served : served.set(task.id, sha256(Buffer.from(await (await fetch(`${sim.url}/files/${task.id}.mp4`)).arrayBuffer())))).get(task.id)
    const onDisk = await readFile(result.file ?? join(resultsDir, 'missing')).then(sha256, () => 'missing')
    if (result.sha256 !== original || onDisk !== original) problems.push(`job ${job.id}: saved ${result.sha256}, on disk ${onDisk}, served ${original}`)
  }
  const leftovers = (await readdir(resultsDir).catch(() => [])).filter((name) => !/^[\da-f-]{36}\.mp4$/.test(name))
  if (leftovers.length > 0) problems.push(`left in the results folder: ${leftovers.join(', ')}`)
  if (sim.tasks.length !== JOBS) problems.push(`${sim.tasks.length} tasks for ${JOBS} jobs`)
  const lost = JOBS - jobs.length

  console.log(`${jobs.length}/${JOBS} jobs completed, ${twice} tasks created twice, ${lost} lost, ${kills} workers killed`)
  if (VERBOSE || problems.length > 0) {
    const resumed = jobs.filter((job) => job.stalledCounter > 0).length
    const partial = jobs.filter((job) => job.returnvalue?.resumedFrom > 0).length
    const posts = new Map()
    for (const r of sim.requests) if (r.method === 'POST' && r.idempotencyKey) posts.set(r.idempotencyKey, (posts.get(r.idempotencyKey) ?? 0) + 1)
    const sentAgain = [...posts.values()].filter((n) => n > 1).length
    console.error(
      `seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s; killed while ${Object.entries(killed).map(([k, n]) => `${k} ${n}`).join(', ')}; ` +
        `${graceful} SIGTERM; ${resumed} jobs picked up after a death, ${sentAgain} creations sent again with their key, ` +
        `${partial} downloads continued from a dead worker's partial file; failed attempts ${failures.length}; faults ${JSON.stringify(sim.faultCounts)}`,
    )
    if (VERBOSE) for (const f of failures.slice(0, 20)) console.error(`  attempt failed: ${f}`)
    if (VERBOSE) console.error(`  kills at ${killLog.map((k) => (k.at / 1000).toFixed(1)).join(' ')}`)
    if (VERBOSE) {
      const perJob = new Map()
      for (const s of stalls) perJob.set(s.jobId, [...(perJob.get(s.jobId) ?? []), (s.at / 1000).toFixed(1)])
      const worst = [...perJob].sort((a, b) => b[1].length - a[1].length).slice(0, 5)
      console.error(`  ${stalls.length} stalls; most: ${worst.map(([id, at]) => `${id}@${at.join(',')}`).join('  ')}`)
    }
  }
  for (const problem of problems.slice(0, 30)) console.error(`  ${problem}`)
  return problems.length === 0 && lost === 0 && twice === 0
}
