// Faults: `tasks` concurrent textToVideo$ against the simulator with chaos
// faults on ~`rate` of all requests (resets before and after creation, cut
// 202s, 5xx, 429, bad poll replies). Counted from the simulator's ledger and
// what each subscriber got:
//   terminal   subscriptions that ended (completed or errored)
//   lost       tasks the simulator created whose id and idempotency key never reached the caller
//   duplicated tasks created more than once for one idempotency key
//   ambiguous  creations that ended in TaskCreationUnknownError (id or key in hand)
//   abandoned  follows of a created task ended by a transient fault
// Run twice: a gateway that ignores Idempotency-Key (rxgate must not retry an
// ambiguous creation: duplicates would show), and one that honours it with
// `idempotentCreate: true` (rxgate retries with the same key: no ambiguity left).
import { createClient, isTaskCreationUnknownError, isTaskFailedError, textToVideo$ } from '../dist/index.js'
import { startSimulator } from '../dist/sim/index.js'

async function run({ tasks, rate, honour }) {
  const sim = await startSimulator({ faults: { chaos: { rate, seed: 7 } }, idempotency: honour ? 'honour' : 'ignore', streamDelayMs: 1 })
  const client = createClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    idempotentCreate: honour,
    retry: { baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 2_000 },
    taskPoll: { initialDelayMs: 300, factor: 1.2, maxDelayMs: 800, jitter: 0.2 },
  })
  const reportedIds = new Set()
  const reportedKeys = new Set()
  let terminal = 0
  let ambiguous = 0
  let abandoned = 0
  let completed = 0
  await Promise.all(
    Array.from(
      { length: tasks },
      (_, i) =>
        new Promise((resolve) => {
          let created = false
          textToVideo$(client, { prompt: `A paper boat number ${i}` }).subscribe({
            next: (event) => {
              if (event.type === 'created') {
                created = true
                reportedIds.add(event.taskId)
                reportedKeys.add(event.idempotencyKey)
              }
              if (event.type === 'completed') completed++
            },
            error: (error) => {
              terminal++
              if (error.taskId) reportedIds.add(error.taskId)
              if (isTaskCreationUnknownError(error)) {
                ambiguous++
                reportedKeys.add(error.idempotencyKey)
              } else if (created && !isTaskFailedError(error)) abandoned++
              resolve()
            },
            complete: () => {
              terminal++
              resolve()
            },
          })
        }),
    ),
  )
  const byKey = new Map()
  for (const task of sim.tasks) if (task.idempotencyKey) byKey.set(task.idempotencyKey, (byKey.get(task.idempotencyKey) ?? 0) + 1)
  const lost = sim.tasks.filter((t) => !reportedIds.has(t.id) && !reportedKeys.has(t.idempotencyKey)).length
  const duplicated = [...byKey.values()].filter((n) => n > 1).length
  const faulted = sim.faultLog.length
  await sim.close()
  return { tasks, terminal, completed, lost, duplicated, ambiguous, abandoned, faulted, requests: sim.requests.length }
}

export async function faultsBench({ tasks = 1_000, rate = 0.1 } = {}) {
  return { ignoring: await run({ tasks, rate, honour: false }), honouring: await run({ tasks, rate, honour: true }) }
}
