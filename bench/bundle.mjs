// Browser bundles: esbuild, minified, gzipped, of the same small apps, built
// the same way for every library (esbuild's defaults for the browser):
//   rxgate-app         streams a response to the page, then renders it as a video
//   rxgate-stream-app  the text part alone
//   rxjs-baseline-app  the rxjs such an app already has (Observable, map, switchMap, share):
//                      rxgate's marginal size is the app's size minus this
//   openai, AI SDK, TanStack AI apps: the text part with each (none has video tasks)
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const APPS = {
  rxgate: './apps/rxgate-app.mjs',
  rxgateStream: './apps/rxgate-stream-app.mjs',
  rxjsBaseline: './apps/rxjs-baseline-app.mjs',
  openai: './apps/openai-app.mjs',
  'AI SDK': './apps/ai-sdk-app.mjs',
  'TanStack AI': './apps/tanstack-app.mjs',
}

async function size(entry) {
  const result = await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  })
  const code = result.outputFiles[0].contents
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length }
}

export async function bundleBench() {
  const sizes = {}
  for (const [name, entry] of Object.entries(APPS)) sizes[name] = await size(entry)
  return { ...sizes, marginal: sizes.rxgate.gzipped - sizes.rxjsBaseline.gzipped }
}
