import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = new URL('../..', import.meta.url).pathname

/** The source files of src/testing and src/sim whose code ends up in a bundle of an app that runs `code` (from the sources; `sideEffects: false` applies). */
async function testingModulesOf(code: string, platform: 'browser' | 'node'): Promise<string[]> {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    metafile: true,
    logLevel: 'silent',
    external: ['rxjs', 'undici', 'valibot', 'eventsource-parser', 'node:*'],
  })
  const [output] = Object.values(result.metafile.outputs)
  return Object.entries(output!.inputs)
    .filter(([file, input]) => /src\/(testing|sim)\//.test(file) && input.bytesInOutput > 0)
    .map(([file]) => file.slice(file.indexOf('src/')))
}

// The built package is checked the same way in test/package.test.ts (it reads dist/, after `npm run build`).
describe('rxgate/testing adds nothing to an app that does not import it', () => {
  it('an app taking everything rxgate exports carries none of src/testing or src/sim', async () => {
    for (const platform of ['browser', 'node'] as const) {
      expect(await testingModulesOf("import * as rxgate from './src/index.ts'; console.log(rxgate)", platform), platform).toEqual([])
    }
  })

  it('a test that imports it carries it, with the simulator models it reuses', async () => {
    const files = await testingModulesOf("import { createTestGateway } from './src/testing/index.ts'; console.log(createTestGateway)", 'node')
    expect(files).toContain('src/testing/createTestGateway.ts')
    expect(files).toContain('src/sim/taskModel.ts')
  })
})
