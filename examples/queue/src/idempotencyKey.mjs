import { idempotencyKeyOf as keyOf } from 'rxgate'

/**
 * The Idempotency-Key of a job's creation, derived from the job's identity
 * with rxgate's `idempotencyKeyOf`: its queue, its id and the moment it was
 * enqueued (a flushed Redis numbers jobs from 1 again). Derived rather than
 * random, because BullMQ delivers a job at least once: a worker whose lock
 * expired in a long pause goes on while another takes the job over, and
 * both then send the same key, where random keys saved by each would make
 * two tasks. Never the attempt number: each retry must send the same key.
 *
 * @example
 * idempotencyKeyOf({ queueName: 'renders', id: '42', timestamp: 1767225600000 }) // '9f9a1e4d-9a74-8ed9-b56b-d770112c4de3' (always the same)
 */
export function idempotencyKeyOf(job) {
  return keyOf(job.queueName, job.id, job.timestamp)
}
