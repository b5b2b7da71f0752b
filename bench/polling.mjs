// Polling cost, in virtual time: status requests and detection delay for a
// video task that completes at 5 minutes, under the default policy (with the
// least and the most jitter) and fixed 10 s and 20 s pollers.
import { defer, of } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { endpoints, pollTask, TASK_POLL_DEFAULTS } from '../dist/index.js'

const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
const T = '2026-01-01T00:00:00Z'

function simulate(poll, random, doneAt) {
  const scheduler = new TestScheduler(() => {})
  let requests = 0
  let seenAt = Number.NaN
  scheduler.run(() => {
    const read = () =>
      defer(() => {
        requests++
        const done = scheduler.now() >= doneAt
        return of({ task_info: { id: ID, status: done ? 'completed' : 'processing', created_at: T, updated_at: T }, ...(done ? { videos: ['https://cdn.test/v.mp4'] } : {}) })
      })
    of({ id: ID })
      .pipe(pollTask(read, { endpoint: endpoints.t2vSpark, poll, random: () => random }))
      .subscribe((event) => event.type === 'completed' && (seenAt = scheduler.now()))
  })
  return { requests, delayS: (seenAt - doneAt) / 1000 }
}

export function pollingBench({ doneAtS = 300 } = {}) {
  const doneAt = doneAtS * 1000
  const fixed = (ms) => ({ initialDelayMs: ms, factor: 1, maxDelayMs: ms, jitter: 0 })
  return {
    'rxgate default (no jitter drawn)': simulate(TASK_POLL_DEFAULTS.video, 0, doneAt),
    'rxgate default (most jitter)': simulate(TASK_POLL_DEFAULTS.video, 0.999, doneAt),
    'fixed 10 s': simulate(fixed(10_000), 0, doneAt),
    'fixed 20 s': simulate(fixed(20_000), 0, doneAt),
  }
}
