// Prints the mutation table of docs/development.md from a StrykerJS JSON report
// (default reports/mutation/mutation.json, written by `npm run mutate`): one row per
// folder of src/ (files directly in src/ are "(top-level)"), sorted by score, then the
// whole core. Timed-out mutants count as detected; ignored ones (static code, see
// stryker.config.mjs) are not counted. `--survivors` lists the surviving and uncovered
// mutants with their current line numbers, for docs/equivalent-mutants.md.
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
const listSurvivors = args.includes('--survivors')
const file = args.find((a) => !a.startsWith('--')) ?? 'reports/mutation/mutation.json'
const report = JSON.parse(readFileSync(file, 'utf8'))

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage']
const empty = () => ({ mutants: 0, Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 })
const areas = new Map()
const survivors = []
for (const [path, { mutants, source }] of Object.entries(report.files)) {
  const parts = path.replace(/^src\//, '').split('/')
  const area = parts.length > 1 ? `\`${parts[0]}/\`` : '`(top-level)`'
  const row = areas.get(area) ?? empty()
  areas.set(area, row)
  for (const mutant of mutants) {
    if (!COUNTED.includes(mutant.status)) continue
    row.mutants++
    row[mutant.status]++
    if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      const { line, column } = mutant.location.start
      const lines = source.split('\n')
      survivors.push(`${path}:${line}:${column} ${mutant.mutatorName} ${mutant.status}: ${JSON.stringify(lines[line - 1].trim().slice(0, 120))} → ${JSON.stringify((mutant.replacement ?? '').slice(0, 80))}`)
    }
  }
}

const score = (r) => (100 * (r.Killed + r.Timeout)) / r.mutants
const pct = (r) => `${score(r).toFixed(1)} %`
const n = (x) => x.toLocaleString('en-US')
const total = empty()
for (const r of areas.values()) for (const key of Object.keys(total)) total[key] += r[key]

console.log('| area | mutants | score | killed | timed out | survived | no coverage |')
console.log('|---|---|---|---|---|---|---|')
for (const [area, r] of [...areas].filter(([, r]) => r.mutants > 0).sort((a, b) => score(a[1]) - score(b[1]))) {
  console.log(`| ${area} | ${n(r.mutants)} | ${pct(r)} | ${n(r.Killed)} | ${n(r.Timeout)} | ${n(r.Survived)} | ${n(r.NoCoverage)} |`)
}
console.log(`| **whole core** | ${n(total.mutants)} | ${pct(total)} | ${n(total.Killed)} | ${n(total.Timeout)} | ${n(total.Survived)} | ${n(total.NoCoverage)} |`)
if (listSurvivors) console.log(`\n${survivors.join('\n')}`)
