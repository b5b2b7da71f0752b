import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild'

export const root = new URL('../..', import.meta.url).pathname

// The browser build swaps each `x.ts` for its twin `x.browser.ts` (tsup.config.ts);
// Angular's test builder bundles that build, so the bundles here take the twins too.
const browserTwins: Plugin = {
  name: 'browser-twins',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir }) => {
      const twin = join(resolveDir, path.replace(/\.js$/, '.browser.ts'))
      return existsSync(twin) ? { path: twin } : undefined
    })
  },
}

/** Bundles `code` for the browser as Angular's builder would; a `node:` import anywhere it reaches fails the build. */
export async function browserBundle(code: string, options: BuildOptions = {}): Promise<{ text: string; metafile: Metafile }> {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent',
    plugins: [browserTwins],
    ...options,
  })
  return { text: result.outputFiles![0]!.text, metafile: result.metafile! }
}
