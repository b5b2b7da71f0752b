// Budget: `tasks` textToVideo$ at once against a simulator that allows a fixed
// rate (`faults.rateLimitPerSecond`: a token bucket of `rate` requests,
// refilled at `rate` a second; an empty bucket answers 429 with Retry-After),
// each request held `latencyMs` at the server so requests overlap there. Four
// clients, otherwise alike (default retries, fast polls):
//   per-call backoff   adaptToRateLimits: false, no maxConcurrency: each call backs off alone (rxgate before the budget)
//   adaptive           the default: a 429 pauses the whole client for its Retry-After and halves the room
//   budget N           maxConcurrency: N, adaptive
//   budget N, fixed    maxConcurrency: N, adaptToRateLimits: false
//   paced              maxRequestsPerSecond: rate (the gateway's own limit), adaptive
// Measured for each: requests sent and 429s (the simulator's log), tasks
// finished (completed) and failed, wall time, and the most requests in flight
// at once at the server, counted by a pass-through proxy in front of it
// (from a request's arrival to the end of its reply).
import http from 'node:http'
import { createClient, isHttpError, textToVideo$ } from '../dist/index.js'
import { startSimulator } from '../dist/sim/index.js'

/** A proxy on 127.0.0.1 to `target` that counts requests in flight. */
async function countingProxy(target) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
  const { hostname, port } = new URL(target)
  const stats = { inFlight: 0, maxInFlight: 0 }
  const server = http.createServer((req, res) => {
    stats.inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
    let counted = true
    const done = () => {
      if (counted) stats.inFlight--
      counted = false
    }
    res.on('close', done)
    const upstream = http.request({ hostname, port, path: req.url, method: req.method, headers: req.headers, agent }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers)
      reply.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      }),
  }
}

async function run({ tasks, rate, latencyMs, client: options }) {
  const sim = await startSimulator({ faults: { rateLimitPerSecond: { limit: rate }, latencyMs }, streamDelayMs: 1 })
  const proxy = await countingProxy(sim.url)
  const client = createClient({
    baseUrl: proxy.url,
    apiKey: sim.apiKey,
    taskPoll: { initialDelayMs: 300, factor: 1.2, maxDelayMs: 800, jitter: 0.2 },
    ...options,
  })
  const started = performance.now()
  const reported = new Set()
  let finished = 0
  let failed = 0
  let rateLimited = 0
  await Promise.all(
    Array.from(
      { length: tasks },
      (_, i) =>
        new Promise((resolve) => {
          textToVideo$(client, { prompt: `A paper boat number ${i}` }).subscribe({
            next: (event) => {
              if (event.type === 'created') reported.add(event.taskId)
              if (event.type === 'completed') finished++
            },
            error: (error) => {
              if (error.taskId) reported.add(error.taskId)
              failed++
              if (isHttpError(error) && error.status === 429) rateLimited++
              resolve()
            },
            complete: resolve,
          })
        }),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  const requests = sim.requests.length
  const throttled = sim.requests.filter((r) => r.status === 429).length
  const created = sim.tasks.length
  const lost = sim.tasks.filter((t) => !reported.has(t.id)).length
  await proxy.close()
  await sim.close()
  return { tasks, finished, failed, rateLimited, created, lost, requests, throttled, seconds, maxInFlight: proxy.stats.maxInFlight }
}

export async function budgetBench({ tasks = 1_000, rate = 100, latencyMs = 50, maxConcurrency = 4 } = {}) {
  const common = { tasks, rate, latencyMs }
  return {
    tasks,
    rate,
    maxConcurrency,
    perCall: await run({ ...common, client: { adaptToRateLimits: false } }),
    adaptive: await run({ ...common, client: {} }),
    budget: await run({ ...common, client: { maxConcurrency } }),
    budgetFixed: await run({ ...common, client: { maxConcurrency, adaptToRateLimits: false } }),
    paced: await run({ ...common, client: { maxRequestsPerSecond: rate } }),
  }
}
