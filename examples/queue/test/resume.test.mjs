// The download steps a crash leaves half done, against the simulator: a
// partial file kept by download$ (keepPartial), continued with Range by the
// next worker, and checked by sha256. (Which partial files must not be
// continued is rxgate's to test.)
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { createClient, taskUrls, textToVideo$ } from 'rxgate'
import { startSimulator } from 'rxgate/sim'
import { lastValueFrom, toArray } from 'rxjs'
import { idempotencyKeyOf } from '../src/idempotencyKey.mjs'
import { saveResult$ } from '../src/saveResult$.mjs'

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')
let sim
let dir
let url
let whole

before(async () => {
  sim = await startSimulator({ timeScale: { pendingMs: 10, processingMs: 10 } })
  dir = await mkdtemp(join(tmpdir(), 'rxgate-resume-'))
  const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, taskPoll: { initialDelayMs: 50, factor: 1, maxDelayMs: 50 } })
  ;[url] = await lastValueFrom(textToVideo$(client, { prompt: 'A red kite' }).pipe(taskUrls()))
  whole = Buffer.from(await (await fetch(url)).arrayBuffer())
})
after(async () => {
  await sim.close()
  await rm(dir, { recursive: true, force: true })
})

/** Starts a download of `url` to `file` on a slow link and stops it after `bytes`, as a worker killed mid-download would. */
async function stopAfter(file, bytes) {
  sim.setFaults({})
  await new Promise((resolve) => {
    const subscription = saveResult$(url, file, { allowHosts: [sim.url], slowLinkMs: 30 }).subscribe((event) => {
      if (event.type === 'progress' && event.bytes >= bytes) {
        subscription.unsubscribe()
        resolve()
      }
    })
  })
  // Give the aborted request's last write a moment to land.
  await new Promise((resolve) => setTimeout(resolve, 100))
  return readFile(`${file}.part`)
}

/** Downloads `file` again, as the next worker would, and says what was asked for. */
async function resume(name, faults = {}) {
  const file = join(dir, `${name}.mp4`)
  sim.setFaults(faults)
  const from = sim.requests.length
  const events = await lastValueFrom(saveResult$(url, file, { allowHosts: [sim.url] }).pipe(toArray()))
  const asked = sim.requests.slice(from).map((r) => r.status)
  return { saved: events.at(-1), disk: await readFile(file), asked, left: (await readdir(dir)).filter((f) => f.startsWith(`${name}.mp4.`)) }
}

test('a stopped download keeps its partial file and its version, and the final name stays empty', async () => {
  const file = join(dir, 'stopped.mp4')
  const part = await stopAfter(file, 1024)
  const names = await readdir(dir)
  assert.ok(!names.includes('stopped.mp4'))
  assert.ok(names.includes('stopped.mp4.part') && names.includes('stopped.mp4.part.json'))
  assert.ok(part.length >= 1024 && whole.subarray(0, part.length).equals(part))
})

test('the next worker continues the partial file from where it stopped, and its sha256 is the whole file\'s', async () => {
  const part = await stopAfter(join(dir, 'same.mp4'), 1024)
  const { saved, disk, asked, left } = await resume('same')
  assert.deepEqual(asked, [206])
  assert.equal(saved.resumedFrom, part.length)
  assert.equal(saved.sha256, sha256(whole))
  assert.equal(sha256(disk), sha256(whole))
  assert.deepEqual(left, [])
})

test('a continued download that breaks again is resumed by download$ itself', async () => {
  const part = await stopAfter(join(dir, 'drop.mp4'), 512)
  const { saved, disk, asked } = await resume('drop', { dropDownloadAt: { bytes: 1000 } })
  // Only ranges: never the whole file again (a break may deliver less than the 1,000 bytes sent before it, so two requests or more).
  assert.ok(asked.length >= 2 && asked.every((status) => status === 206), asked.join())
  assert.equal(saved.resumedFrom, part.length)
  assert.equal(sha256(disk), sha256(whole))
})

test('the Idempotency-Key of a job is a UUID that only its queue, id and enqueue time decide', () => {
  const job = { queueName: 'renders', id: '42', timestamp: 1767225600000 }
  const key = idempotencyKeyOf(job)
  assert.match(key, /^[\da-f]{8}-[\da-f]{4}-8[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/)
  assert.equal(idempotencyKeyOf({ ...job }), key)
  assert.notEqual(idempotencyKeyOf({ ...job, id: '43' }), key)
  assert.notEqual(idempotencyKeyOf({ ...job, timestamp: job.timestamp + 1 }), key)
})
