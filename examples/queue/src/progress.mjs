/**
 * Reports a job's progress (`job.updateProgress`) without waiting for Redis
 * on every event and without piling up writes: while one write is out, only
 * the latest value is kept, and written next. `flush()` waits for the last.
 * Progress is for people and dashboards; the durable state is `job.data`.
 *
 * @example
 * const progress = progressOf(job, 'worker-1')
 * progress.set({ stage: 'following', status: 'processing' })
 */
export function progressOf(job, worker) {
  let pending
  let writing = Promise.resolve()
  let busy = false
  const pump = async () => {
    busy = true
    while (pending) {
      const value = pending
      pending = undefined
      await job.updateProgress(value).catch(() => {})
    }
    busy = false
  }
  return {
    set(value) {
      pending = { ...value, worker, at: Date.now() }
      if (!busy) writing = pump()
    },
    flush: () => writing,
  }
}
