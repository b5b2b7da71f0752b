// npm run bench: every benchmark side by side with its peers in one run; prints
// the table and writes bench/RESULTS.md. `--tiny` runs small sizes (as npm test does).
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { bundleBench } from './bundle.mjs'
import { createBench } from './create.mjs'
import { fmt, ratio } from './measure.mjs'
import { pollingBench } from './polling.mjs'
import { sseBench } from './sse.mjs'
import { tasksBench } from './tasks.mjs'

/** Runs all five benchmarks and returns the table rows with their goals. */
export async function runAll({ tiny = false, log = () => {} } = {}) {
  const rows = []
  const row = (name, measured, ratios, goal, met) => {
    rows.push({ name, measured, ratios, goal, met })
    log(`${met ? 'met ' : 'MISS'} ${name}: ${measured} | ${ratios}`)
  }

  const sse = await sseBench(tiny ? { deltas: 2_000, rounds: 1 } : {})
  row(
    `SSE throughput (${fmt(sse.events)} events, 16 KB chunks)`,
    `rxgate ${fmt(sse.rxgate)} ev/s; openai ${fmt(sse.openai)} ev/s; floor ${fmt(sse.floor)} ev/s`,
    `${ratio(sse.rxgate, sse.openai)} openai; ${ratio(sse.rxgate, sse.floor)} floor`,
    '≥ 4× openai, ≥ 0.75× floor',
    sse.rxgate >= 4 * sse.openai && sse.rxgate >= 0.75 * sse.floor,
  )

  const create = await createBench(tiny ? { total: 200, rounds: 1 } : {})
  row(
    `Non-stream create (${tiny ? 200 : '5,000'} requests, concurrency 16)`,
    `rxgate ${fmt(create.rxgate)} req/s; openai ${fmt(create.openai)} req/s; floor ${fmt(create.floor)} req/s`,
    `${ratio(create.rxgate, create.openai)} openai; ${ratio(create.rxgate, create.floor)} floor`,
    '≥ 3× openai, ≥ 0.7× floor',
    create.rxgate >= 3 * create.openai && create.rxgate >= 0.7 * create.floor,
  )

  const tasks = await tasksBench(tiny ? { tasks: 200 } : {})
  row(
    `Many tasks (${fmt(tasks.tasks)} concurrent task$ polls)`,
    `${fmt(tasks.heapPerTask)} heap bytes/task; ${tasks.timersPerTask.toFixed(2)} timers/task; ${fmt(tasks.cpuPerPollUs)} CPU µs/poll; ${tasks.timersLeft} timers left after unsubscribe`,
    'n/a (no peer polls tasks)',
    '≤ 2 KB heap, ≤ 1 timer per task',
    tasks.heapPerTask <= 2048 && tasks.timersPerTask <= 1 && tasks.timersLeft <= 0,
  )

  const bundle = await bundleBench()
  row(
    'Browser bundle (esbuild, minified, gzipped)',
    `rxgate app ${fmt(bundle.rxgate.gzipped)} B (responses$ stream + textToVideo$, rxjs included); openai app ${fmt(bundle.openai.gzipped)} B (responses only)`,
    `${ratio(bundle.rxgate.gzipped, bundle.openai.gzipped)} openai`,
    '≤ 12 KB, ≤ 1/3 of openai',
    bundle.rxgate.gzipped <= 12 * 1024 && bundle.rxgate.gzipped * 3 <= bundle.openai.gzipped,
  )

  const polling = pollingBench()
  const def = polling['rxgate default (most jitter)']
  const base = polling['rxgate default (no jitter drawn)']
  row(
    'Polling cost (task done at 5 min, virtual time)',
    Object.entries(polling)
      .map(([name, r]) => `${name}: ${r.requests} requests, seen ${r.delayS} s late`)
      .join('; '),
    `${ratio(base.requests, polling['fixed 10 s'].requests)} the requests of fixed 10 s`,
    '≤ 17 requests, seen within 20 s',
    Math.max(def.requests, base.requests) <= 17 && Math.max(def.delayS, base.delayS) <= 20,
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
  return ['rxjs', 'valibot', 'undici', 'eventsource-parser', 'openai', 'esbuild'].map((n) => `${n} ${pkg(n)}`).join(', ')
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
  const report = `# Benchmark results\n\nMeasured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.\n\n- Machine: ${machine}\n- Node ${process.version}; ${versions()}\n\n${table}\n`
  console.log(`\n${table}\n`)
  if (!tiny) writeFileSync(new URL('./RESULTS.md', import.meta.url), report)
  process.exit(0)
}
