import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import type { Metafile } from 'esbuild'
import { browserBundle } from '../helpers/browserBundle.js'

/** Every import of every module in the bundle that names a Node built-in. */
const nodeImports = (metafile: Metafile) =>
  Object.entries(metafile.inputs).flatMap(([file, input]) => input.imports.filter((i) => /^node:/.test(i.path)).map((i) => `${file} -> ${i.path}`))

describe('rxgate/testing and rxgate/angular/testing in a browser bundle', () => {
  for (const entry of ['src/angular/testing/index.ts', 'src/testing/index.ts']) {
    it(`bundles ${entry} for the browser platform with no node: import`, async () => {
      const { metafile } = await browserBundle(`export * from './${entry}'`, { external: ['rxjs', 'rxjs/*', '@angular/*'] })
      expect(nodeImports(metafile)).toEqual([])
      // The simulator's models are in it (the test gateway answers by them), its server is not.
      const files = Object.keys(metafile.inputs)
      expect(files).toContain('src/sim/responseDraft.ts')
      expect(files.filter((f) => /src\/sim\/(server|index|write|body|files|png)\.ts$/.test(f))).toEqual([])
    })
  }

  it('answers a streamed response and a video task in a context with only web globals (no process, Buffer or require)', async () => {
    const { text } = await browserBundle(
      `import { lastValueFrom, map, toArray, VirtualTimeScheduler } from 'rxjs'
       import { createTestGateway } from './src/testing/index.ts'
       import { outputText, responses$, textToVideo$ } from './src/index.ts'
       const scheduler = new VirtualTimeScheduler()
       const gateway = createTestGateway({ scheduler, task: () => ({ timing: { pendingMs: 15000, processingMs: 20000 } }) })
       const seen = []
       responses$(gateway.client, { model: 'gpt-4o', input: 'Say hi', stream: true }).pipe(outputText()).subscribe((text) => seen.push(text))
       textToVideo$(gateway.client, { prompt: 'A lighthouse' }).pipe(map((e) => e.type)).subscribe((type) => seen.push(type))
       scheduler.flush()
       globalThis.result = { seen, ids: gateway.responses.map((r) => r.id), requests: gateway.requests.length }`,
      { format: 'iife' },
    )
    const web = { TextEncoder, TextDecoder, URL, URLSearchParams, crypto: globalThis.crypto, AbortController, AbortSignal, DOMException, Event, EventTarget, queueMicrotask, setTimeout, clearTimeout, setInterval, clearInterval, console }
    const context: Record<string, unknown> & { result?: { seen: string[]; ids: string[]; requests: number } } = { ...web }
    runInNewContext(text, context)
    // The simulator's greeting (its words picked by a SHA-256 of the prompt), then the task from created to completed.
    expect(context.result?.seen).toEqual(['created', 'Hi there! How can I help you today?', 'pending', 'processing', 'completed'])
    expect(context.result?.ids).toEqual([expect.stringMatching(/^resp_[0-9a-f]{48}$/)])
    expect(context.result?.requests).toBe(5)
  })
})
