import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from '../src/sim/index.js'
import { outputOf, printedLines, readmeBlocks, type ReadmeBlock } from './readme/blocks.js'
import { documents } from './readme/documents.js'
import { limited, runNode, type BlockRun } from './readme/run.js'
import { transpile, typecheck, type BlockDiagnostic } from './readme/typecheck.js'
import { createWorkspace, ROOT, type Workspace } from './readme/workspace.js'

// The README and the guides under docs/ are the user's manual: every ```ts
// block in them is a standalone module that must type-check in a strict Node
// ESM project, and a block with `// Output:` comments must print exactly
// those lines when run against the simulator. `npm test` builds dist/ first;
// the blocks import 'rxgate' as users do, through the package's exports map.
// README_PATH (relative to the repo, or absolute) checks one Markdown file
// alone.

/**
 * Blocks, and blocks with Output, each page holds at least: fewer, and the
 * page has lost its examples, or the extractor its way. A page with examples
 * that is not listed here is still checked.
 */
const MINIMUMS: Readonly<Record<string, readonly [blocks: number, runnable: number]>> = {
  'README.md': [6, 5],
  'docs/background-responses.md': [3, 3],
  'docs/bots.md': [10, 9],
  'docs/browser-and-angular.md': [5, 0],
  'docs/budget-and-rate-limits.md': [2, 2],
  'docs/client.md': [2, 2],
  'docs/custom-audio.md': [3, 3],
  'docs/downloads.md': [3, 3],
  'docs/errors-and-retries.md': [3, 3],
  'docs/hooks-and-usage.md': [1, 1],
  'docs/telemetry.md': [3, 2],
  'docs/media-tasks.md': [5, 5],
  'docs/node-pipelines.md': [5, 5],
  'docs/server.md': [3, 3],
  'docs/simulator.md': [2, 2],
  'docs/streaming-and-responses.md': [3, 3],
  'docs/testing.md': [9, 6],
}
/** Blocks, and blocks with Output, of all the documents together. */
const MIN_TOTAL = 60
const MIN_TOTAL_RUNNABLE = 54
/** One run may take this long before it is killed and fails. */
const RUN_LIMIT_MS = 20_000
/** Runs at once: the suite shares two cores. */
const PARALLEL = 2

const only = process.env.README_PATH
const names = only ? [relative(ROOT, isAbsolute(only) ? only : resolve(ROOT, only))] : documents()

interface DocBlock extends ReadmeBlock {
  /** The document, relative to the repo. */
  readonly doc: string
  /** The block's file name in the workspace, without extension. */
  readonly file: string
}

const byDoc = new Map<string, DocBlock[]>(
  names.map((doc) => [
    doc,
    readmeBlocks(readFileSync(resolve(ROOT, doc), 'utf8')).map((block) => ({
      ...block,
      doc,
      file: `${doc.replace(/[^A-Za-z0-9]+/g, '-')}-${String(block.line).padStart(4, '0')}`,
    })),
  ]),
)
const blocks = [...byDoc.values()].flat()
const runnable = blocks.filter((block) => block.output !== undefined)

describe('Document extraction', () => {
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

  it('takes README.md and every .md under docs/, nested ones included, but not the generated API reference', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rxgate-documents-'))
    try {
      for (const dir of ['docs/guides', 'docs/api/classes']) await mkdir(join(root, dir), { recursive: true })
      for (const file of ['README.md', 'docs/b.md', 'docs/a.md', 'docs/notes.txt', 'docs/guides/c.md', 'docs/api/index.md', 'docs/api/classes/X.md']) await writeFile(join(root, file), '# x\n')
      expect(documents(root)).toEqual(['README.md', 'docs/a.md', 'docs/b.md', 'docs/guides/c.md'])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

let workspace: Workspace | undefined
let sim: Simulator | undefined
const stop = new AbortController()
const diagnostics = new Map<DocBlock, BlockDiagnostic[]>()
const runs = new Map<DocBlock, Promise<BlockRun>>()

beforeAll(async () => {
  workspace = await createWorkspace()
  const files = new Map<DocBlock, string>()
  for (const block of blocks) {
    files.set(block, await workspace.write(`${block.file}.ts`, block.code))
    if (block.output) await workspace.write(`${block.file}.mjs`, transpile(block.code, `${block.file}.ts`))
  }
  // All blocks in one program, checked before any run starts: the check holds this thread, which also serves the simulator.
  const checked = typecheck([...files.values()])
  for (const [block, file] of files) diagnostics.set(block, checked.get(file)!)

  sim = await startSimulator()
  const env = { GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey }
  const run = limited(PARALLEL, (file: string) => runNode(file, { cwd: workspace!.dir, env, limitMs: RUN_LIMIT_MS, signal: stop.signal }))
  for (const block of runnable) runs.set(block, run(`${block.file}.mjs`))
}, 120_000)

afterAll(async () => {
  stop.abort()
  await Promise.allSettled(runs.values())
  await sim?.close()
  await workspace?.remove()
})

describe('the documents', () => {
  it.skipIf(only !== undefined)(`are README.md and docs/, with every page of the minimums among them, and ${MIN_TOTAL} blocks (${MIN_TOTAL_RUNNABLE} with Output) in all`, () => {
    expect(names).toEqual(expect.arrayContaining(Object.keys(MINIMUMS)))
    expect(blocks.length).toBeGreaterThanOrEqual(MIN_TOTAL)
    expect(runnable.length).toBeGreaterThanOrEqual(MIN_TOTAL_RUNNABLE)
  })
})

for (const [doc, docBlocks] of byDoc) {
  const [minBlocks, minRunnable] = MINIMUMS[doc] ?? [0, 0]
  // A page without examples (an index, a table of numbers) has nothing to check here; its links are checked by test/docs.test.ts.
  if (docBlocks.length === 0 && minBlocks === 0) continue
  describe(doc, () => {
    if (minBlocks > 0) {
      it(`has ts blocks (at least ${minBlocks}) and blocks with Output (at least ${minRunnable})`, () => {
        expect(docBlocks.length).toBeGreaterThanOrEqual(minBlocks)
        expect(docBlocks.filter((block) => block.output !== undefined).length).toBeGreaterThanOrEqual(minRunnable)
      })
    }

    for (const block of docBlocks) {
      it(`${doc}:${block.line} type-checks`, () => {
        const checked = diagnostics.get(block)
        if (!checked) throw new Error(`the block at ${doc}:${block.line} was not type-checked`)
        const found = checked.map((d) => `${doc}:${d.line === undefined ? block.line : block.line + 1 + d.line}: ${d.message}`)
        expect(found, `the block at ${doc}:${block.line} does not type-check`).toEqual([])
      })
    }

    for (const block of docBlocks.filter((b) => b.output !== undefined)) {
      it(
        `${doc}:${block.line} prints its Output`,
        async () => {
          const { stdout, stderr, code, timedOut, ms } = await runs.get(block)!
          const at = `the block at ${doc}:${block.line}`
          const errors = stderr ? `\n--- its stderr ---\n${stderr.trimEnd()}\n---` : ''
          expect(timedOut, `${at} was killed after ${RUN_LIMIT_MS} ms; it printed:\n${stdout}${errors}`).toBe(false)
          expect(printedLines(stdout), `${at} printed other lines than its Output comments (run for ${ms} ms)${errors}`).toEqual(block.output)
          expect(code, `${at} printed its Output, then exited with code ${code}${errors}`).toBe(0)
        },
        RUN_LIMIT_MS * 3,
      )
    }
  })
}
