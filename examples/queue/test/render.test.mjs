// The render processor against the simulator, one saved state at a time:
// what a worker does with a job that another worker left at each step.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, test } from 'node:test'
import { createClient, isTaskCreationUnknownError, textToVideo$ } from 'rxgate'
import { startSimulator } from 'rxgate/sim'
import { firstValueFrom } from 'rxjs'
import { idempotencyKeyOf } from '../src/idempotencyKey.mjs'
import { renderProcessor } from '../src/render.mjs'

const request = { prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5 }
let sim
let client
let dir
let count = 0

/** A job as BullMQ hands it to a processor, with the data it was left with; it records each save. */
function jobWith(state) {
  const job = {
    id: String(++count),
    queueName: 'renders',
    timestamp: 1767225600000,
    data: { request, state },
    saves: [],
    updateData: async (data) => {
      job.saves.push(data.state)
      job.data = data
    },
    updateProgress: async () => {},
    moveToWait: async () => {
      job.movedToWait = true
    },
  }
  return job
}
const posts = () => sim.requests.filter((r) => r.method === 'POST')
const processor = (shutdown = new AbortController().signal) => renderProcessor({ client, resultsDir: dir, allowHosts: [sim.url], shutdown })

before(async () => {
  sim = await startSimulator({ timeScale: { pendingMs: 50, processingMs: 50 } })
  client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, idempotentCreate: true, retry: { count: 2, baseDelayMs: 1, maxDelayMs: 1 }, taskPoll: { initialDelayMs: 30, factor: 1, maxDelayMs: 30 } })
  dir = await mkdtemp(join(tmpdir(), 'rxgate-render-'))
})
beforeEach(() => sim.setFaults({}))
after(async () => {
  await sim.close()
  await rm(dir, { recursive: true, force: true })
})

test('a new job saves its key before the creation is sent, then the task id, then the file', async () => {
  const job = jobWith({})
  const sent = posts().length
  const result = await processor()(job, 'token')
  const key = idempotencyKeyOf(job)
  assert.deepEqual(job.saves[0], { key })
  assert.equal(job.saves[1].taskId, result.taskId)
  assert.deepEqual(posts().slice(sent).map((r) => r.idempotencyKey), [key])
  assert.equal(result.bytes, 2899)
  assert.match(result.sha256, /^[\da-f]{64}$/)
  assert.equal(result.file, join(dir, `${result.taskId}.mp4`))
  assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith(result.taskId)), [`${result.taskId}.mp4`])
})

test('a job left with only its key sends the creation again and gets the task made before', async () => {
  const job = jobWith({})
  job.data.state = { key: idempotencyKeyOf(job) }
  // The worker that saved the key died after its POST arrived: the task exists, its id was never saved.
  const before = await firstValueFrom(textToVideo$(client, request, { idempotencyKey: job.data.state.key }))
  const tasks = sim.tasks.length
  const result = await processor()(job, 'token')
  assert.equal(result.taskId, before.taskId)
  assert.equal(sim.tasks.length, tasks)
})

test('a creation whose outcome stays unknown fails the attempt, keeps the key, and the retry makes no second task', async () => {
  const job = jobWith({})
  sim.setFaults({ resetAfterCreate: { every: 1 } })
  const tasks = sim.tasks.length
  const error = await processor()(job, 'token').catch((e) => e)
  assert.ok(isTaskCreationUnknownError(error))
  assert.equal(error.idempotencyKey, job.data.state.key)
  assert.equal(job.data.state.taskId, undefined)
  assert.equal(sim.tasks.length, tasks + 1) // made once, whatever the number of sends
  sim.setFaults({})
  const result = await processor()(job, 'token')
  assert.equal(sim.tasks.length, tasks + 1)
  assert.equal(result.taskId, sim.tasks.at(-1).id)
})

test('two workers holding one job at once (a lock lost in a long pause) make one task, and a whole file', async () => {
  const first = jobWith({})
  const second = jobWith({}) // the same job, read from Redis by another worker
  second.id = first.id
  const tasks = sim.tasks.length
  const results = await Promise.allSettled([processor()(first, 'a'), processor()(second, 'b')])
  assert.equal(sim.tasks.length, tasks + 1)
  const done = results.filter((r) => r.status === 'fulfilled').map((r) => r.value)
  assert.ok(done.length >= 1)
  const served = createHash('sha256').update(Buffer.from(await (await fetch(`${sim.url}/files/${done[0].taskId}.mp4`)).arrayBuffer())).digest('hex')
  const onDisk = createHash('sha256').update(await readFile(done[0].file)).digest('hex')
  assert.equal(onDisk, served)
  for (const result of done) assert.equal(result.sha256, served)
})

test('a job left with its task id follows it, and sends no creation', async () => {
  const created = await firstValueFrom(textToVideo$(client, request))
  const job = jobWith({})
  job.data.state = { key: created.idempotencyKey, taskId: created.taskId }
  const sent = posts().length
  const result = await processor()(job, 'token')
  assert.equal(result.taskId, created.taskId)
  assert.equal(posts().length, sent)
})

test('a job whose file was renamed into place, but not yet saved, is hashed from disk without a download', async () => {
  const created = await firstValueFrom(textToVideo$(client, request))
  const file = join(dir, `${created.taskId}.mp4`)
  await writeFile(file, 'the whole file')
  await writeFile(`${file}.part.json`, '{"validator":"\\"x\\""}') // a leftover of the rename's last step
  const job = jobWith({ key: created.idempotencyKey, taskId: created.taskId })
  const requests = sim.requests.length
  const result = await processor()(job, 'token')
  assert.equal(sim.requests.length, requests)
  assert.equal(result.bytes, 14)
  assert.equal(result.sha256, createHash('sha256').update('the whole file').digest('hex'))
  assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith(created.taskId)), [`${created.taskId}.mp4`])
})

test('a job already saved returns its result at once', async () => {
  const job = jobWith({ key: 'k', taskId: 't', file: '/x.mp4', bytes: 1, sha256: 'ab' })
  const requests = sim.requests.length
  assert.deepEqual(await processor()(job, 'token'), { taskId: 't', file: '/x.mp4', bytes: 1, sha256: 'ab', resumedFrom: 0 })
  assert.equal(sim.requests.length, requests)
})

test('on shutdown the step in flight is dropped and the job goes back to the queue as it stands', async () => {
  sim.setFaults({ latencyMs: 200 })
  const job = jobWith({})
  const shutdown = new AbortController()
  const running = processor(shutdown.signal)(job, 'token').catch((e) => e)
  await new Promise((resolve) => setTimeout(resolve, 100)) // the key is saved, the creation is on its way
  shutdown.abort(new Error('shutting down'))
  const error = await running
  assert.equal(error.name, 'WaitingError')
  assert.equal(job.movedToWait, true)
  assert.deepEqual(Object.keys(job.data.state), ['key'])
})
