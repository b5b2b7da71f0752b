import { createHash } from 'node:crypto'

/**
 * The Idempotency-Key of a job's creation: a UUID derived from the queue,
 * the job's id and the moment it was enqueued. Saved in the job's data
 * before the creation is sent, like a random key would be; derived, because
 * BullMQ delivers a job at least once: a worker whose lock expired in a
 * long pause goes on while another takes the job over. Both then send the
 * same key, where random keys saved by each would make two tasks. The
 * enqueue time keeps keys apart when a flushed Redis numbers jobs from 1 again.
 *
 * @example
 * idempotencyKeyOf({ queueName: 'renders', id: '42', timestamp: 1767225600000 }) // '5c0e…-…' (always the same)
 */
export function idempotencyKeyOf(job) {
  const hex = createHash('sha256').update(`${job.queueName}\n${job.id}\n${job.timestamp}`).digest('hex')
  // The layout of a UUID (version 8: application-defined), which gateways that check the key's form accept.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
