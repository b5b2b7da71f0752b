import { defineConfig, type Options } from 'tsup'
import type { Plugin } from 'esbuild'

// The browser build swaps the Node transport (undici) for the page's fetch,
// so a browser bundle never contains undici.
const browserTransport: Plugin = {
  name: 'browser-transport',
  setup(build) {
    build.onResolve({ filter: /\/defaultTransport\.js$/ }, (args) => ({
      path: new URL(args.path.replace(/\.js$/, '.browser.ts'), `file://${args.resolveDir}/`).pathname,
    }))
  },
}

const common: Options = { target: 'es2022', sourcemap: true, treeshake: true, splitting: false }

export default defineConfig([
  { ...common, entry: { index: 'src/index.ts', sim: 'src/sim/index.ts' }, format: ['esm', 'cjs'], dts: true, clean: true, platform: 'node' },
  { ...common, entry: { cli: 'src/cli/index.ts' }, format: ['esm'], platform: 'node' },
  { ...common, entry: { 'browser/index': 'src/index.ts' }, format: ['esm'], platform: 'browser', esbuildPlugins: [browserTransport] },
])
