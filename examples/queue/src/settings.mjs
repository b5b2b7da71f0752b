// Every setting of the producer and the worker, read from the environment
// once, so that a team changes its gateway, Redis and limits without
// touching code. Defaults suit production; the crash test shortens them.

/** A whole number from the environment, or the default; anything else stops the process with a clear message. */
function int(env, name, fallback, min = 1) {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min} (got ${JSON.stringify(raw)})`)
  return value
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @example
 * const settings = settingsFrom(process.env)
 * settings.worker.concurrency // 8 unless WORKER_CONCURRENCY says otherwise
 */
export function settingsFrom(env) {
  const pollMs = int(env, 'TASK_POLL_MS', 0, 0)
  return {
    /** `redis://host:port` (or `rediss://`), or the path of a unix socket. */
    redis: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    queueName: env.QUEUE_NAME ?? 'renders',
    gateway: {
      baseUrl: env.GATEWAY_BASE_URL,
      apiKey: env.GATEWAY_API_KEY,
      // Requests in flight at once for this process (rxgate's client budget), whatever the number of jobs.
      maxConcurrency: int(env, 'GATEWAY_MAX_CONCURRENCY', 16),
      // 0: rxgate's defaults (10 s growing to 20 s, as the interface advises). The simulator's fast clock wants a few hundred ms.
      ...(pollMs > 0 ? { taskPoll: { initialDelayMs: pollMs, factor: 1, maxDelayMs: pollMs } } : {}),
    },
    resultsDir: env.RESULTS_DIR ?? 'results',
    /** Hosts that result downloads may reach at a private address: only a gateway on your own network (a local simulator) needs one. */
    downloadAllowHosts: (env.DOWNLOAD_ALLOW_HOSTS ?? '').split(',').filter(Boolean),
    worker: {
      name: env.WORKER_NAME ?? `worker-${process.pid}`,
      concurrency: int(env, 'WORKER_CONCURRENCY', 8),
      // A dead worker's jobs go back to the queue once their lock has expired and a stalled check has run.
      lockDuration: int(env, 'LOCK_DURATION_MS', 30_000),
      stalledInterval: int(env, 'STALLED_INTERVAL_MS', 30_000),
      // Each death of a worker counts against the jobs it held. Past this many, the job fails: one that
      // kills every worker that takes it (a poison job: out of memory, a crash in a library) stops there.
      maxStalledCount: int(env, 'MAX_STALLED_COUNT', 5),
      // Jobs started per window, across every worker of the queue (BullMQ keeps the count in Redis).
      limiter: { max: int(env, 'LIMIT_JOBS', 20), duration: int(env, 'LIMIT_WINDOW_MS', 1_000) },
    },
    job: {
      attempts: int(env, 'JOB_ATTEMPTS', 5),
      backoff: { type: 'exponential', delay: int(env, 'JOB_BACKOFF_MS', 2_000) },
    },
    /** Test only: deliver result files in small chunks this many ms apart, a slow link on which a kill lands mid-download. */
    slowLinkMs: int(env, 'SLOW_LINK_MS', 0, 0),
  }
}
