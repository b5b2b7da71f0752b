import { existsSync } from 'node:fs'
import { readdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { defineConfig, type Options } from 'tsup'

// ESM ships as one file per module: with "sideEffects": false a bundler drops
// every module an app does not reach (a stream-only app carries no task code,
// no task schemas). CommonJS and the CLI are single files.
// Each `x.browser.ts` takes the place of its twin `x.ts` in the browser build.
const nodeTwins = ['!src/transport/defaultTransport.ts', '!src/validation/fastCheck.ts', '!src/download/sink.ts', '!src/download/fileSink.ts', '!src/transport/publicFetch.ts']
// rxgate/node (Node streams) and the partial files of downloads: never part of a browser build.
const nodeOnly = ['!src/node/index.ts', '!src/node/toReadable.ts', '!src/node/toTextReadable.ts', '!src/download/partialFileSink.ts', '!src/download/partVersion.ts', '!src/validation/objectCheck.ts', '!src/download/placeNew.ts']
async function browserFiles(): Promise<void> {
  const files = (await readdir('dist/browser', { recursive: true })).filter((f) => f.endsWith('.browser.js'))
  await Promise.all(files.map((f) => rename(`dist/browser/${f}`, `dist/browser/${f.replace(/\.browser\.js$/, '.js')}`)))
}

// The same swap for bundles: an import of `./x.js` takes `./x.browser.ts` where one exists.
const browserTwins = {
  name: 'browser-twins',
  setup(build: { onResolve(options: { filter: RegExp }, callback: (args: { path: string; resolveDir: string }) => { path: string } | undefined): void }) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir }) => {
      const twin = join(resolveDir, path.replace(/\.js$/, '.browser.ts'))
      return existsSync(twin) ? { path: twin } : undefined
    })
  },
}

const modules: Options = { bundle: false, format: ['esm'], target: 'es2022', sourcemap: false, splitting: false }
const library = ['src/**/*.ts', '!src/cli/**', '!src/**/*.browser.ts']

export default defineConfig([
  { ...modules, entry: [...library, '!src/angular/**'], outDir: 'dist', platform: 'node' },
  {
    // The browser build: the page's fetch instead of undici, so a browser bundle never holds undici.
    // rxgate/angular is built here too: with fetch on both sides, an Angular server build bundles no undici.
    ...modules,
    // rxgate/testing and the simulator's models are here only for rxgate/angular/testing (a component test in jsdom); an app that does not import it reaches none of them.
    entry: ['src/**/*.ts', '!src/cli/**', '!src/sim/server.ts', '!src/sim/index.ts', '!src/server/**', '!src/transport/undiciTransport.ts', ...nodeOnly, ...nodeTwins],
    outDir: 'dist/browser',
    platform: 'browser',
    onSuccess: browserFiles,
  },
  { entry: { index: 'src/index.ts', sim: 'src/sim/index.ts', server: 'src/server/index.ts', node: 'src/node/index.ts', testing: 'src/testing/index.ts', otel: 'src/otel/index.ts' }, format: ['cjs'], target: 'es2022', outDir: 'dist', platform: 'node' },
  // CommonJS of the browser flavour: for `require` under the `browser` condition, and for rxgate/angular.
  { entry: { 'browser/index': 'src/index.ts', angular: 'src/angular/index.ts' }, format: ['cjs'], target: 'es2022', outDir: 'dist', platform: 'browser', esbuildPlugins: [browserTwins] },
  {
    entry: {
      index: 'src/index.ts',
      sim: 'src/sim/index.ts',
      server: 'src/server/index.ts',
      angular: 'src/angular/index.ts',
      'angular/testing': 'src/angular/testing/index.ts',
      node: 'src/node/index.ts',
      testing: 'src/testing/index.ts',
      otel: 'src/otel/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: { only: true },
    outDir: 'dist',
  },
  { entry: { cli: 'src/cli/index.ts' }, format: ['esm'], target: 'es2022', outDir: 'dist', platform: 'node' },
])
