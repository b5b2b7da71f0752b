import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { createWorkspace } from './readme/workspace.js'
import { typecheck } from './readme/typecheck.js'

// `npm test` builds first, so these read the package as users get it, by its
// own name through the `exports` map.
const root = new URL('..', import.meta.url).pathname
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }).trim()
const NAMES = ['createClient', 'responses$', 'textToVideo$', 'task$', 'createGateway', 'textDeltas', 'outputText', 'pollTask', 'backoff', 'isHttpError', 'GatewayError']

/** The package files whose code ends up in an app's bundle when it imports `code` from 'rxgate' (the browser condition by default). */
async function modulesOf(code: string, platform: 'browser' | 'node' = 'browser'): Promise<string[]> {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    metafile: true,
    logLevel: 'silent',
    external: platform === 'node' ? ['rxjs', 'valibot', 'undici', 'eventsource-parser'] : ['rxjs'],
  })
  const [output] = Object.values(result.metafile.outputs)
  return Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file)
}

describe('the built package', () => {
  it('imports from ESM', () => {
    const out = node(['--input-type=module', '-e', `import * as m from 'rxgate'; console.log(${JSON.stringify(NAMES)}.filter((n) => !m[n]).join(',') || 'ok', Object.keys(m.endpoints).length)`])
    expect(out).toBe('ok 6')
  })

  it('requires from CommonJS, and the guards recognise errors made by the other copy', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module'; import * as esm from 'rxgate'
       const cjs = createRequire(import.meta.url)('rxgate')
       const e = new cjs.HttpError({ method: 'GET', path: '/x', status: 429, body: '' })
       console.log(${JSON.stringify(NAMES)}.filter((n) => !cjs[n]).join(',') || 'ok', e instanceof esm.HttpError, esm.isHttpError(e), esm.isGatewayError(e), e.kind)`,
    ])
    expect(out).toBe('ok false true true rate_limit')
  })

  it('exports the simulator at rxgate/sim from both', () => {
    expect(node(['--input-type=module', '-e', "import { startSimulator } from 'rxgate/sim'; console.log(typeof startSimulator)"])).toBe('function')
    expect(node(['-e', "console.log(typeof require('rxgate/sim').startSimulator)"])).toBe('function')
  })

  it('exports the test gateway at rxgate/testing from both', () => {
    expect(node(['--input-type=module', '-e', "import { createTestGateway } from 'rxgate/testing'; console.log(typeof createTestGateway)"])).toBe('function')
    expect(node(['-e', "console.log(typeof require('rxgate/testing').createTestGateway)"])).toBe('function')
  })

  it('keeps rxgate/testing (and the simulator it is built on) out of an app that does not import it, in the browser and in Node', async () => {
    const everything = "import * as rxgate from 'rxgate'; console.log(rxgate)"
    for (const platform of ['browser', 'node'] as const) {
      const files = await modulesOf(everything, platform)
      expect(files.filter((f) => /dist\/(browser\/)?(testing|sim)[./]/.test(f)), platform).toEqual([])
    }
  })

  it('ships the stream event types that narrow: the narrowing checks compile against the published .d.ts, in strict mode', async () => {
    // test/types/narrowing.ts, with its imports from src/ turned into one import from 'rxgate'.
    const source = readFileSync(new URL('./types/narrowing.ts', import.meta.url), 'utf8')
    const imports = [...source.matchAll(/^import type \{ ([^}]+) \} from '\.\.\/\.\.\/src\/[^']+'$/gm)]
    expect(imports.length).toBeGreaterThan(3)
    const names = imports.flatMap((m) => m[1]!.split(',').map((name) => name.trim()))
    const published = `import type { ${names.join(', ')} } from 'rxgate'\n${source.replace(/^import type .*$/gm, '')}`
    const workspace = await createWorkspace()
    try {
      const file = await workspace.write('narrowing.ts', published)
      expect(typecheck([file]).get(file)).toEqual([])
    } finally {
      await workspace.remove()
    }
  })

  it('ships types for both module systems and the CLI', () => {
    for (const file of ['index.d.ts', 'index.d.cts', 'sim.d.ts', 'sim.d.cts', 'cli.js', 'browser/index.js']) expect(existsSync(`${root}dist/${file}`), file).toBe(true)
  })

  it('gives a browser bundle without undici, and a Node one with it', async () => {
    const app = "import { createClient, responses$ } from 'rxgate'; console.log(createClient, responses$)"
    expect((await modulesOf(app)).filter((f) => /undici/.test(f))).toEqual([])
    expect((await modulesOf(app)).some((f) => f.includes('dist/browser/'))).toBe(true)
    expect((await modulesOf(app, 'node')).some((f) => /transport\/undiciTransport\.js$/.test(f))).toBe(true)
  })

  it('tree-shakes: an app importing only responses$ carries no task code and no text-to-video rules', async () => {
    const files = await modulesOf("import { createClient, responses$ } from 'rxgate'; console.log(createClient, responses$)")
    expect(files.some((f) => f.endsWith('responses$.js'))).toBe(true)
    for (const unit of ['tasks$.js', 'validation/task.js', 'validation/textToVideoRequest.js', 'operators/pollTask.js', 'endpoints.js', 'gateway.js']) {
      expect(files.filter((f) => f.endsWith(unit)), unit).toEqual([])
    }
  })

  it('keeps the server, Angular, simulator and Node entries out of a browser app, even one that takes everything rxgate exports', async () => {
    const files = await modulesOf("import * as rxgate from 'rxgate'; console.log(rxgate)")
    expect(files.some((f) => f.includes('dist/browser/'))).toBe(true)
    // (toAsyncIterable, which rxgate itself exports, lives beside rxgate/node's streams: only those are the Node entry.)
    const foreign = /dist\/(browser\/)?(server|angular|sim)[./]|dist\/(browser\/)?node\/(index|toReadable|toTextReadable)\.js|undici|@angular/
    expect(files.filter((f) => foreign.test(f))).toEqual([])
  })

  it('and an app importing only textToVideo$ carries no stream event schemas', async () => {
    const files = await modulesOf("import { createClient, textToVideo$ } from 'rxgate'; console.log(createClient, textToVideo$)")
    expect(files.some((f) => f.endsWith('tasks$.js'))).toBe(true)
    for (const unit of ['responses$.js', 'validation/streamEvents.js', 'streams/sse$.js']) expect(files.filter((f) => f.endsWith(unit)), unit).toEqual([])
  })
})
