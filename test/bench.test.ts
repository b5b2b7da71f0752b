import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: the benchmarks are plain ES modules without types.
import { renderTable, runAll } from '../bench/run.mjs'

interface Row {
  name: string
  measured: string
  ratios: string
  goal: string
  met: boolean
  data: Record<string, any>
}

// A tiny run of every benchmark, so the scripts keep working and their
// contenders keep doing the same work (each throws if it reads a different
// text). Speed goals are judged only by `npm run bench` at full size; what
// must hold at any size is asserted here.
describe('npm run bench, tiny', () => {
  it('runs every row; what holds at any size holds', async () => {
    const rows: Row[] = await runAll({ tiny: true })
    expect(rows.map((r) => r.name.split(' (')[0])).toEqual([
      'SSE throughput',
      'Time to first delta',
      'Non-stream create',
      'Browser bundle',
      'Open streams',
      'Many tasks',
      'Polling cost',
      'Faults',
      'Budget',
      'Request-rate budget',
      'Relay throughput',
      'Pull-based batch',
    ])
    const [sse, first, create, bundle, open, tasks, polling, faults, budget] = rows.map((r) => r.data) as Record<string, any>[] as [any, any, any, any, any, any, any, any, any]
    for (const r of [sse.floor, create.floor, ...Object.values(sse.peers), ...Object.values(create.peers)] as { median: number }[]) {
      expect(r.median).toBeGreaterThan(0)
      expect(Number.isFinite(r.median)).toBe(true)
    }
    expect(Object.keys(sse.peers)).toEqual(['openai', 'AI SDK', 'TanStack AI'])
    expect(Object.keys(first)).toEqual(['floor', 'rxgate', 'openai', 'AI SDK', 'TanStack AI'])
    // Browser bundle: the stream-only app leaves the task code out; the facade holds every call, so
    // the same app on it is larger than on the standalone functions; rxgate adds to an Angular app.
    expect(bundle.rxgateStream.gzipped).toBeLessThan(bundle.rxgate.gzipped)
    expect(bundle.rxgateStream.gzipped).toBeLessThan(bundle.rxgateFacade.gzipped)
    expect(bundle.rxgate.gzipped).toBeLessThan(bundle.rxgateFacade.gzipped)
    expect(bundle.angularRxgate.gzipped).toBeGreaterThan(bundle.angular.gzipped)
    expect(bundle.angularMarginal).toBe(bundle.angularRxgate.gzipped - bundle.angular.gzipped)
    expect(bundle.marginal).toBe(bundle.rxgate.gzipped - bundle.rxjsBaseline.gzipped)
    for (const peer of ['openai', 'AI SDK', 'TanStack AI']) expect(bundle[peer].gzipped).toBeGreaterThan(0)
    expect(open.rxgateOpen).toBe(open.streams)
    expect(open.floorOpen).toBe(open.streams)
    expect(tasks.timersPerTask).toBe(1)
    expect(tasks.timersLeft).toBe(0)
    expect(polling['fixed 10 s'].requests).toBe(30)
    for (const run of [faults.ignoring, faults.honouring]) {
      expect(run.terminal).toBe(run.tasks)
      expect(run.lost).toBe(0)
      expect(run.duplicated).toBe(0)
      expect(run.abandoned).toBe(0)
      expect(run.faulted).toBeGreaterThan(0)
    }
    expect(faults.honouring.ambiguous).toBe(0)
    // Budget: with a budget of N, never more than N requests in flight at the server, every task
    // finished, and fewer requests than each call backing off alone; no run loses a created task.
    for (const run of [budget.budget, budget.budgetFixed]) {
      expect(run.maxInFlight).toBeLessThanOrEqual(budget.maxConcurrency)
      expect(run.finished).toBe(run.tasks)
      expect(run.requests).toBeLessThan(budget.perCall.requests)
    }
    expect(budget.perCall.throttled).toBeGreaterThan(0) // the gateway's limit was hit: a storm, not a quiet run
    // Pacing at the gateway's own rate: no 429 at all, every task finished.
    expect(budget.paced.throttled).toBe(0)
    expect(budget.paced.finished).toBe(budget.paced.tasks)
    for (const run of [budget.perCall, budget.adaptive, budget.budget, budget.budgetFixed, budget.paced]) {
      expect(run.lost).toBe(0)
      expect(run.finished + run.failed).toBe(run.tasks)
    }
    // Pull-based batch: mapConcurrent never starts more calls than the writer can take plus concurrency.
    const batch = rows.find((r) => r.name.startsWith('Pull-based batch'))!.data
    expect(batch.pull.maxAhead).toBeLessThanOrEqual(batch.bound)
    expect(batch.pull.created).toBe(batch.prompts)
    for (const r of rows) expect(typeof r.met).toBe('boolean')
    const table = renderTable(rows).split('\n')
    expect(table).toHaveLength(rows.length + 2)
    expect(table[2]).toMatch(/^\| SSE throughput .*\| (yes|\*\*no\*\*) \|$/)
  }, 120_000)
})

// The parts' costs in docs/benchmarks.md come from emptying each part's modules; a part whose
// module was renamed would be emptied of nothing and cost 0 without a word.
describe('bench/bundleParts.mjs', () => {
  it('names modules of the browser build, and each part costs the stream-only app something', async () => {
    // @ts-expect-error: the benchmarks are plain ES modules without types.
    const { bundleParts, OPTIONAL_PARTS, CORE_PARTS } = await import('../bench/bundleParts.mjs')
    for (const module of Object.values({ ...OPTIONAL_PARTS, ...CORE_PARTS }).flat() as string[]) expect(existsSync(`dist/browser/${module}.js`), module).toBe(true)
    const { whole, parts, everyOptionalPart } = (await bundleParts()) as { whole: number; parts: Record<string, number>; everyOptionalPart: number }
    for (const [name, bytes] of Object.entries(parts)) expect(bytes, name).toBeGreaterThan(0)
    expect(everyOptionalPart).toBeGreaterThan(0)
    expect(everyOptionalPart).toBeLessThan(whole)
  }, 60_000)
})
