// npm run bench: every benchmark side by side with its peers in one run; prints
// the table and writes bench/RESULTS.md. `--tiny` runs small sizes (as npm test does).
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { budgetBench } from './budget.mjs'
import { bundleBench } from './bundle.mjs'
import { createBench } from './create.mjs'
import { faultsBench } from './faults.mjs'
import { firstDeltaBench } from './firstDelta.mjs'
import { fmt, median, span, x } from './measure.mjs'
import { pipelineBench } from './pipeline.mjs'
import { pollingBench } from './polling.mjs'
import { relayBench } from './relay.mjs'
import { sseBench } from './sse.mjs'
import { streamsBench } from './streams.mjs'
import { tasksBench } from './tasks.mjs'

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const peersOf = (peers) => Object.entries(peers).map(([name, r]) => `${span(r)} ${name}`).join('; ')

/** Runs every benchmark and returns the table rows, each with its goal and whether it is met. */
export async function runAll({ tiny = false, log = () => {} } = {}) {
  const rows = []
  const row = (name, measured, ratios, goal, met, data) => {
    rows.push({ name, measured, ratios, goal, met, data })
    log(`${met ? 'met ' : 'MISS'} ${name}: ${measured} | ${ratios}`)
  }

  const sse = await sseBench(tiny ? { deltas: 2_000, rounds: 1 } : {})
  row(
    `SSE throughput (${fmt(sse.events)} events, 16 KB chunks, every event validated)`,
    Object.entries(sse.results).map(([name, list]) => `${name} ${fmt([...list].sort((a, b) => a - b)[list.length >> 1])} ev/s`).join('; '),
    `${span(sse.floor)} floor; ${peersOf(sse.peers)}`,
    '≥ 0.9× floor',
    sse.floor.median >= 0.9,
    sse,
  )

  const first = await firstDeltaBench(tiny ? { calls: 10 } : {})
  row(
    `Time to first delta (${tiny ? 10 : 300} calls each), overhead over the floor`,
    Object.entries(first).map(([name, r]) => `${name} ${fmt(r.medianUs)} µs`).join('; '),
    Object.entries(first).filter(([name]) => name !== 'floor').map(([name, r]) => `${name} +${fmt(r.overUs)} µs`).join('; '),
    '≤ +50 µs',
    first.rxgate.overUs <= 50,
    first,
  )

  const create = await createBench(tiny ? { total: 200, rounds: 1 } : {})
  row(
    `Non-stream create (${tiny ? 200 : '5,000'} requests, concurrency 16)`,
    Object.entries(create.results).map(([name, list]) => `${name} ${fmt([...list].sort((a, b) => a - b)[list.length >> 1])} req/s`).join('; ') + '; TanStack AI: none (its chat() always streams)',
    `${span(create.floor)} floor; ${peersOf(create.peers)}`,
    '≥ 0.9× floor',
    create.floor.median >= 0.9,
    create,
  )

  const bundle = await bundleBench()
  row(
    'Browser bundle (esbuild defaults, minified, gzipped)',
    `stream only ${kb(bundle.rxgateStream.gzipped)}; facade app (stream + video) ${kb(bundle.rxgateFacade.gzipped)}; client app (stream + video) ${kb(bundle.rxgate.gzipped)}; ` +
      `on Angular +${kb(bundle.angularMarginal)} over the same app without rxgate; client app over rxjs alone +${kb(bundle.marginal)}; ` +
      `text part with openai ${kb(bundle.openai.gzipped)}, AI SDK ${kb(bundle['AI SDK'].gzipped)}, TanStack AI ${kb(bundle['TanStack AI'].gzipped)}`,
    `${x(bundle.rxgateStream.gzipped / bundle.openai.gzipped)} openai; ${x(bundle.rxgateStream.gzipped / bundle['AI SDK'].gzipped)} AI SDK; ${x(bundle.rxgateStream.gzipped / bundle['TanStack AI'].gzipped)} TanStack AI (stream only)`,
    '≤ 16 KB stream only, ≤ 26 KB facade, ≤ +14 KB on Angular',
    bundle.rxgateStream.gzipped <= 16 * 1024 && bundle.rxgateFacade.gzipped <= 26 * 1024 && bundle.angularMarginal <= 14 * 1024,
    bundle,
  )

  const open = await streamsBench(tiny ? { streams: 200 } : {})
  row(
    `Open streams (${fmt(open.streams)} idle at once)`,
    `rxgate ${fmt(open.rxgateOpen)} open, ${fmt(open.rxgateHeap)} heap bytes each; floor ${fmt(open.floorOpen)} open, ${fmt(open.floorHeap)} bytes each`,
    `${x(open.ratio)} the floor's heap`,
    'all open, ≤ 1.3× the floor',
    open.rxgateOpen === open.streams && open.ratio <= 1.3,
    open,
  )

  const tasks = await tasksBench(tiny ? { tasks: 200, rounds: 1 } : {})
  row(
    `Many tasks (${fmt(tasks.tasks)} concurrent task$ follows)`,
    `${fmt(tasks.heapPerTask)} heap bytes/task; ${tasks.timersPerTask.toFixed(2)} timers/task; ${tasks.timersLeft} left after unsubscribe; CPU/poll ${fmt(tasks.cpuPerPollUs)} µs, floor ${fmt(tasks.floorCpuPerPollUs)} µs`,
    `${span(tasks.cpuRatio)} the floor's CPU/poll`,
    '≤ 2 KB heap, ≤ 1 timer per task, CPU ≤ 1.3× floor',
    tasks.heapPerTask <= 2048 && tasks.timersPerTask <= 1 && tasks.timersLeft <= 0 && tasks.cpuRatio.median <= 1.3,
    tasks,
  )

  const polling = pollingBench()
  const most = polling['rxgate default (most jitter)']
  const least = polling['rxgate default (no jitter drawn)']
  row(
    'Polling cost (task done at 5 min, virtual time)',
    Object.entries(polling)
      .map(([name, r]) => `${name}: ${r.requests} requests, seen ${r.delayS} s late`)
      .join('; '),
    `${x(least.requests / polling['fixed 10 s'].requests)} the requests of fixed 10 s`,
    '≤ 17 requests, seen within 20 s',
    Math.max(most.requests, least.requests) <= 17 && Math.max(most.delayS, least.delayS) <= 20,
    polling,
  )

  const faults = await faultsBench(tiny ? { tasks: 100 } : {})
  const f = (r) => `${r.terminal}/${r.tasks} ended, ${r.completed} completed, ${r.lost} lost, ${r.duplicated} duplicated, ${r.ambiguous} ambiguous, ${r.abandoned} abandoned (${r.faulted} faults in ${r.requests} requests)`
  row(
    `Faults (${fmt(faults.ignoring.tasks)} textToVideo$ at once, ~10 % of requests faulted)`,
    `gateway ignoring Idempotency-Key: ${f(faults.ignoring)}; honouring it, idempotentCreate: ${f(faults.honouring)}`,
    'n/a (no peer creates tasks)',
    'all end; 0 lost, 0 duplicated, 0 abandoned; with idempotentCreate 0 ambiguous',
    [faults.ignoring, faults.honouring].every((r) => r.terminal === r.tasks && r.lost === 0 && r.duplicated === 0 && r.abandoned === 0) &&
      faults.honouring.ambiguous === 0,
    faults,
  )

  const budget = await budgetBench(tiny ? { tasks: 100 } : {})
  const n = (v) => v.toLocaleString('en-US')
  const b = (r) => `${n(r.requests)} requests, ${n(r.throttled)} 429s, ${n(r.finished)}/${n(r.tasks)} finished, ${r.seconds.toFixed(1)} s, ${r.maxInFlight} in flight at most`
  row(
    `Budget (${fmt(budget.tasks)} textToVideo$ at once, gateway limited to ${budget.rate} requests/s)`,
    `per-call backoff: ${b(budget.perCall)}; adaptive (default): ${b(budget.adaptive)}; maxConcurrency ${budget.maxConcurrency}: ${b(budget.budget)}; maxConcurrency ${budget.maxConcurrency}, adaptToRateLimits false: ${b(budget.budgetFixed)}`,
    `${x(budget.budget.requests / budget.perCall.requests)} the requests of per-call backoff`,
    `with maxConcurrency N: ≤ N in flight, every task finished, fewer requests than per-call backoff`,
    [budget.budget, budget.budgetFixed].every((r) => r.maxInFlight <= budget.maxConcurrency && r.finished === r.tasks && r.requests < budget.perCall.requests),
    budget,
  )
  row(
    `Request-rate budget (the same ${fmt(budget.tasks)} tasks, gateway limited to ${budget.rate} requests/s)`,
    `maxRequestsPerSecond ${budget.rate}: ${b(budget.paced)}`,
    `${n(budget.paced.throttled)} 429s vs ${n(budget.adaptive.throttled)} adaptive (default); ${x(budget.paced.seconds / budget.adaptive.seconds)} its time`,
    'maxRequestsPerSecond N against a gateway allowing N/s: 0 429s, every task finished',
    budget.paced.throttled === 0 && budget.paced.finished === budget.paced.tasks,
    budget.paced,
  )

  const relay = await relayBench(tiny ? { deltas: 2_000, rounds: 1 } : {})
  row(
    `Relay throughput (${fmt(relay.events)} events through rxgate/server in a worker, the key masked in every line)`,
    `direct ${fmt(median(relay.results.direct))} ev/s; relayed ${fmt(median(relay.results.relayed))} ev/s; relayed, nothing to mask ${fmt(median(relay.results.unmasked))} ev/s`,
    `${span(relay.ratio)} direct; masking ${span(relay.masking)} the unmasked relay`,
    '≥ 0.8× direct',
    relay.ratio.median >= 0.8,
    relay,
  )

  const batch = await pipelineBench(tiny ? { prompts: 40, writeDelayMs: 1, at: 10 } : {})
  const ahead = (r) => `${r.atLine.started} paid calls started (${r.atLine.created} created at the gateway) at ${batch.at} lines written, ${r.maxAhead} ahead of the writer at most`
  row(
    `Pull-based batch (${batch.prompts} prompts, concurrency ${batch.concurrency}, a writer taking ${batch.writeDelayMs} ms a line with a buffer of ${batch.buffer})`,
    `toReadable: ${ahead(batch.buffered)}; mapConcurrent: ${ahead(batch.pull)}`,
    `most calls ahead of the writer: mapConcurrent ${x(batch.pull.maxAhead / batch.bound)}, toReadable ${x(batch.buffered.maxAhead / batch.bound)} the bound (concurrency + buffer = ${batch.bound})`,
    'mapConcurrent ≤ 1× the bound; every prompt answered once',
    batch.pull.maxAhead <= batch.bound,
    batch,
  )
  return rows
}

function versions() {
  const require = createRequire(import.meta.url)
  const pkg = (name) => {
    try {
      return require(`${name}/package.json`).version
    } catch {
      return require('node:fs').readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8').match(/"version":\s*"([^"]+)"/)[1]
    }
  }
  return ['rxjs', 'valibot', 'undici', 'eventsource-parser', 'openai', 'ai', '@ai-sdk/openai', '@tanstack/ai', '@tanstack/ai-openai', 'esbuild'].map((n) => `${n} ${pkg(n)}`).join(', ')
}

export function renderTable(rows) {
  const lines = ['| benchmark | measured | ratio | goal | met |', '|---|---|---|---|---|']
  for (const r of rows) lines.push(`| ${r.name} | ${r.measured} | ${r.ratios} | ${r.goal} | ${r.met ? 'yes' : '**no**'} |`)
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tiny = process.argv.includes('--tiny')
  const rows = await runAll({ tiny, log: (line) => console.error(line) })
  const table = renderTable(rows)
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`
  const report = `# Benchmark results\n\nMeasured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.\n\n- Machine: ${machine}\n- Node ${process.version}; ${versions()}\n- Ratios are rxgate's to each contender, per interleaved round: median (min–max).\n\n${table}\n`
  console.log(`\n${table}\n`)
  if (!tiny) writeFileSync(new URL('./RESULTS.md', import.meta.url), report)
  process.exit(0)
}
