// Puts render jobs on the queue. `node src/producer.mjs 200` enqueues 200
// sample renders; an application calls `enqueueRenders` with its own.
import { pathToFileURL } from 'node:url'
import { Queue } from 'bullmq'
import { redisConnection } from './redis.mjs'
import { settingsFrom } from './settings.mjs'

const SIZES = ['1280*720', '720*1280', '960*960', '1920*1080']
const SUBJECTS = ['a red kite over a grey sea', 'a lantern on a pier', 'rain on a tin roof', 'a fox crossing fresh snow', 'a paper boat in a gutter']

/**
 * Enqueues one job per render request (`{ prompt, size, duration, audio? }`),
 * with retries and backoff; the job's data holds the request and, later,
 * its durable state. Resolves with the jobs.
 *
 * @example
 * await enqueueRenders(queue, [{ prompt: 'A red kite', size: '1280*720', duration: 5 }], { attempts: 5, backoff: { type: 'exponential', delay: 2000 } })
 */
export function enqueueRenders(queue, requests, { attempts, backoff }) {
  return queue.addBulk(requests.map((request) => ({ name: 'render', data: { request, state: {} }, opts: { attempts, backoff } })))
}

/** `count` sample requests, varied in size, duration and audio. */
export function sampleRenders(count) {
  return Array.from({ length: count }, (_, i) => ({
    prompt: `Render ${i + 1}: ${SUBJECTS[i % SUBJECTS.length]}, slow camera move`,
    size: SIZES[i % SIZES.length],
    duration: i % 3 === 0 ? 10 : 5,
    ...(i % 4 === 0 ? { audio: true } : {}),
  }))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const settings = settingsFrom(process.env)
  const connection = redisConnection(settings.redis)
  const queue = new Queue(settings.queueName, { connection })
  const jobs = await enqueueRenders(queue, sampleRenders(Number(process.argv[2] ?? 10)), settings.job)
  console.log(`enqueued ${jobs.length} renders on ${settings.queueName}`)
  await queue.close()
  await connection.quit()
}
