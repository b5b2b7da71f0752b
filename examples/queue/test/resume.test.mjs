// The download steps a crash leaves half done, against the simulator: a
// partial file continued with Range, and every case where it must not be.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
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
let etag

before(async () => {
  sim = await startSimulator({ timeScale: { pendingMs: 10, processingMs: 10 } })
  dir = await mkdtemp(join(tmpdir(), 'rxgate-resume-'))
  const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, taskPoll: { initialDelayMs: 50, factor: 1, maxDelayMs: 50 } })
  ;[url] = await lastValueFrom(textToVideo$(client, { prompt: 'A red kite' }).pipe(taskUrls()))
  const reply = await fetch(url)
  etag = reply.headers.get('etag')
  whole = Buffer.from(await reply.arrayBuffer())
})
after(async () => {
  await sim.close()
  await rm(dir, { recursive: true, force: true })
})

/** Leaves `bytes` (and a validator) where a dead worker would have, downloads, and says what was asked for. */
async function resume(name, { bytes, validator, faults = {} }) {
  const file = join(dir, `${name}.mp4`)
  if (bytes) await writeFile(`${file}.part`, bytes)
  if (validator) await writeFile(`${file}.part.json`, JSON.stringify({ validator }))
  sim.setFaults(faults)
  const from = sim.requests.length
  const events = await lastValueFrom(saveResult$(url, file, { allowHosts: [sim.url] }).pipe(toArray()))
  const asked = sim.requests.slice(from).map((r) => r.status)
  return { saved: events.at(-1), disk: await readFile(file), asked, left: (await readdir(dir)).filter((f) => f.startsWith(`${name}.mp4.`)) }
}

test('a partial file of the same version is continued from where it stopped', async () => {
  const { saved, disk, asked, left } = await resume('same', { bytes: whole.subarray(0, 1500), validator: etag })
  assert.deepEqual(asked, [206])
  assert.equal(saved.resumedFrom, 1500)
  assert.equal(saved.sha256, sha256(whole))
  assert.equal(sha256(disk), sha256(whole))
  assert.deepEqual(left, [])
})

test('a continued download that breaks again is resumed by download$ itself', async () => {
  const { saved, disk, asked } = await resume('drop', { bytes: whole.subarray(0, 500), validator: etag, faults: { dropDownloadAt: { bytes: 1000 } } })
  // Only ranges: never the whole file again (a break may deliver less than the 1,000 bytes sent before it, so three requests or more).
  assert.ok(asked.length >= 3 && asked.every((status) => status === 206), asked.join())
  assert.equal(saved.resumedFrom, 500)
  assert.equal(sha256(disk), sha256(whole))
})

test('bytes of another version, or of an unknown one, are thrown away', async () => {
  for (const [name, validator] of [['other', '"another-version"'], ['unknown', undefined]]) {
    const { saved, disk, asked } = await resume(name, { bytes: Buffer.alloc(1500, 7), validator })
    assert.deepEqual(asked, [200], name)
    assert.equal(saved.resumedFrom, 0)
    assert.equal(sha256(disk), sha256(whole))
  }
})

test('a validator torn by a kill while it was written is no validator', async () => {
  const file = join(dir, 'torn.mp4')
  await writeFile(`${file}.part.json`, '{"validator":"\\"')
  const { saved, disk, asked } = await resume('torn', { bytes: whole.subarray(0, 1500) })
  assert.deepEqual(asked, [200])
  assert.equal(saved.resumedFrom, 0)
  assert.equal(sha256(disk), sha256(whole))
})

test('a leftover longer than the file (416) starts over', async () => {
  const { disk, asked } = await resume('long', { bytes: Buffer.alloc(4000, 7), validator: etag })
  assert.deepEqual(asked, [416, 200])
  assert.equal(sha256(disk), sha256(whole))
})

test('unsubscribing keeps the partial file and its validator, and the final name stays empty', async () => {
  const file = join(dir, 'stopped.mp4')
  sim.setFaults({})
  await new Promise((resolve) => {
    const subscription = saveResult$(url, file, { allowHosts: [sim.url], slowLinkMs: 30 }).subscribe((event) => {
      if (event.type === 'progress' && event.bytes >= 1024) {
        subscription.unsubscribe()
        resolve()
      }
    })
  })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const names = await readdir(dir)
  assert.ok(!names.includes('stopped.mp4'))
  assert.ok(names.includes('stopped.mp4.part') && names.includes('stopped.mp4.part.json'))
  const part = await readFile(`${file}.part`)
  assert.ok(part.length >= 1024 && whole.subarray(0, part.length).equals(part))
  const again = await resume('stopped', {})
  assert.equal(again.saved.resumedFrom, part.length)
  assert.equal(sha256(again.disk), sha256(whole))
})

test('the Idempotency-Key of a job is a UUID that only its queue, id and enqueue time decide', () => {
  const job = { queueName: 'renders', id: '42', timestamp: 1767225600000 }
  const key = idempotencyKeyOf(job)
  assert.match(key, /^[\da-f]{8}-[\da-f]{4}-8[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/)
  assert.equal(idempotencyKeyOf({ ...job }), key)
  assert.notEqual(idempotencyKeyOf({ ...job, id: '43' }), key)
  assert.notEqual(idempotencyKeyOf({ ...job, timestamp: job.timestamp + 1 }), key)
})
