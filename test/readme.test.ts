import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from '../src/sim/index.js'
import { outputOf, printedLines, readmeBlocks, type ReadmeBlock } from './readme/blocks.js'
import { limited, runNode, type BlockRun } from './readme/run.js'
import { transpile, typecheck, type BlockDiagnostic } from './readme/typecheck.js'
import { createWorkspace, ROOT, type Workspace } from './readme/workspace.js'

// The README is the user's manual: every ```ts block in it is a standalone
// module that must type-check in a strict Node ESM project, and a block with
// `// Output:` comments must print exactly those lines when run against the
// simulator. `npm test` builds dist/ first; the blocks import 'rxgate' as
// users do, through the package's exports map. README_PATH (relative to the
// repo, or absolute) checks another Markdown file the same way.

const README = resolve(ROOT, process.env.README_PATH ?? 'README.md')
const NAME = relative(ROOT, README)
/** Fewer than these and the README has lost its examples, or the extractor its way: either way the test must not pass vacuously. */
const MIN_BLOCKS = 12
const MIN_RUNNABLE = 10
/** One run may take this long before it is killed and fails. */
const RUN_LIMIT_MS = 20_000
/** Runs at once: the suite shares two cores. */
const PARALLEL = 2

const blocks = readmeBlocks(readFileSync(README, 'utf8'))
const runnable = blocks.filter((block) => block.output !== undefined)
const fileOf = (block: ReadmeBlock) => `block-${String(block.line).padStart(4, '0')}`

describe('README extraction', () => {
  const markdown = [
    '# Title', // 1
    '```ts', // 2
    "import { a } from 'rxgate'", // 3
    'console.log(a) // Output: one', // 4
    '```', // 5
    '', // 6
    '```sh', // 7
    'npm test', // 8
    '```', // 9
    '- a list item:', // 10
    '  ```ts', // 11
    '  const x: number = 1', // 12
    '  console.log(x)', // 13
    '  // Output:', // 14
    '  // first', // 15
    '  //   second ', // 16
    '', // 17
    '  // not output', // 18
    '  ```', // 19
    '````md', // 20
    '```ts', // 21
    'shown, not a block', // 22
    '```', // 23
    '````', // 24
    '```typescript', // 25
    'export type T = string', // 26
    '```', // 27
  ].join('\n')

  it('finds each ts block with the line of its fence, and skips other languages and fences shown inside them', () => {
    expect(readmeBlocks(markdown).map((b) => b.line)).toEqual([2, 11, 25])
  })

  it('reads a one-line Output, a multi-line Output up to the first line that is not a comment, and none', () => {
    expect(readmeBlocks(markdown).map((b) => b.output)).toEqual([['one'], ['first', 'second'], undefined])
  })

  it('removes the indentation of an indented fence from its code', () => {
    expect(readmeBlocks(markdown)[1]!.code).toBe(['const x: number = 1', 'console.log(x)', '// Output:', '// first', '//   second ', '', '// not output', ''].join('\n'))
  })

  it('adds up several Output comments in order, a bare one ending at the next marker', () => {
    expect(outputOf(['// Output:', '// a', '// Output: b', 'f() // Output: c'])).toEqual(['a', 'b', 'c'])
    expect(outputOf(['// Output:'])).toEqual([])
  })

  it('compares printed lines trimmed, without blank lines at either end', () => {
    expect(printedLines('\n  a \r\n\nb\n\n')).toEqual(['a', '', 'b'])
    expect(printedLines('Hi there!')).toEqual(['Hi there!'])
  })
})

describe(NAME, () => {
  let workspace: Workspace | undefined
  let sim: Simulator | undefined
  const stop = new AbortController()
  const diagnostics = new Map<ReadmeBlock, BlockDiagnostic[]>()
  const runs = new Map<ReadmeBlock, Promise<BlockRun>>()

  beforeAll(async () => {
    workspace = await createWorkspace()
    const files = new Map<ReadmeBlock, string>()
    for (const block of blocks) {
      files.set(block, await workspace.write(`${fileOf(block)}.ts`, block.code))
      if (block.output) await workspace.write(`${fileOf(block)}.mjs`, transpile(block.code, `${fileOf(block)}.ts`))
    }
    // Checked before any run starts: the check holds this thread, which also serves the simulator.
    const checked = typecheck([...files.values()])
    for (const [block, file] of files) diagnostics.set(block, checked.get(file)!)

    sim = await startSimulator()
    const env = { GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey }
    const run = limited(PARALLEL, (file: string) => runNode(file, { cwd: workspace!.dir, env, limitMs: RUN_LIMIT_MS, signal: stop.signal }))
    for (const block of runnable) runs.set(block, run(`${fileOf(block)}.mjs`))
  }, 60_000)

  afterAll(async () => {
    stop.abort()
    await Promise.allSettled(runs.values())
    await sim?.close()
    await workspace?.remove()
  })

  it(`has ts blocks (at least ${MIN_BLOCKS}) and blocks with Output (at least ${MIN_RUNNABLE})`, () => {
    expect(blocks.length).toBeGreaterThanOrEqual(MIN_BLOCKS)
    expect(runnable.length).toBeGreaterThanOrEqual(MIN_RUNNABLE)
  })

  for (const block of blocks) {
    it(`${NAME}:${block.line} type-checks`, () => {
      const checked = diagnostics.get(block)
      if (!checked) throw new Error(`the block at ${NAME}:${block.line} was not type-checked`)
      const found = checked.map((d) => `${NAME}:${d.line === undefined ? block.line : block.line + 1 + d.line}: ${d.message}`)
      expect(found, `the block at ${NAME}:${block.line} does not type-check`).toEqual([])
    })
  }

  for (const block of runnable) {
    it(
      `${NAME}:${block.line} prints its Output`,
      async () => {
        const { stdout, stderr, code, timedOut, ms } = await runs.get(block)!
        const at = `the block at ${NAME}:${block.line}`
        const errors = stderr ? `\n--- its stderr ---\n${stderr.trimEnd()}\n---` : ''
        expect(timedOut, `${at} was killed after ${RUN_LIMIT_MS} ms; it printed:\n${stdout}${errors}`).toBe(false)
        expect(printedLines(stdout), `${at} printed other lines than its Output comments (run for ${ms} ms)${errors}`).toEqual(block.output)
        expect(code, `${at} printed its Output, then exited with code ${code}${errors}`).toBe(0)
      },
      RUN_LIMIT_MS * 3,
    )
  }
})
