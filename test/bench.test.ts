import { describe, expect, it } from 'vitest'
// @ts-expect-error: the benchmarks are plain ES modules without types.
import { renderTable, runAll } from '../bench/run.mjs'

// A tiny run of every benchmark, so the scripts keep working; goals are
// judged only by `npm run bench` at full size.
describe('npm run bench, tiny', () => {
  it('runs all five benchmarks and renders their rows', async () => {
    const rows: Array<{ name: string; measured: string; ratios: string }> = await runAll({ tiny: true })
    expect(rows).toHaveLength(5)
    for (const row of rows) {
      expect(row.measured).toMatch(/\d/)
      expect(row.measured).not.toMatch(/NaN|Infinity|undefined/)
    }
    expect(renderTable(rows).split('\n')).toHaveLength(7)
  }, 60_000)
})
