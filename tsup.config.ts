import { readdir, rename } from 'node:fs/promises'
import { defineConfig, type Options } from 'tsup'

// ESM ships as one file per module: with "sideEffects": false a bundler drops
// every module an app does not reach (a stream-only app carries no task code,
// no task schemas). CommonJS and the CLI are single files.
// Each `x.browser.ts` takes the place of its twin `x.ts` in the browser build.
const nodeTwins = ['!src/transport/defaultTransport.ts', '!src/validation/fastCheck.ts']
async function browserFiles(): Promise<void> {
  const files = (await readdir('dist/browser', { recursive: true })).filter((f) => f.endsWith('.browser.js'))
  await Promise.all(files.map((f) => rename(`dist/browser/${f}`, `dist/browser/${f.replace(/\.browser\.js$/, '.js')}`)))
}

const modules: Options = { bundle: false, format: ['esm'], target: 'es2022', sourcemap: false, splitting: false }
const library = ['src/**/*.ts', '!src/cli/**', '!src/**/*.browser.ts']

export default defineConfig([
  { ...modules, entry: library, outDir: 'dist', platform: 'node' },
  {
    // The browser build: the page's fetch instead of undici, so a browser bundle never holds undici.
    ...modules,
    entry: ['src/**/*.ts', '!src/cli/**', '!src/sim/**', '!src/transport/undiciTransport.ts', ...nodeTwins],
    outDir: 'dist/browser',
    platform: 'browser',
    onSuccess: browserFiles,
  },
  { entry: { index: 'src/index.ts', sim: 'src/sim/index.ts' }, format: ['cjs'], target: 'es2022', outDir: 'dist', platform: 'node' },
  { entry: { index: 'src/index.ts', sim: 'src/sim/index.ts' }, format: ['esm', 'cjs'], dts: { only: true }, outDir: 'dist' },
  { entry: { cli: 'src/cli/index.ts' }, format: ['esm'], target: 'es2022', outDir: 'dist', platform: 'node' },
])
