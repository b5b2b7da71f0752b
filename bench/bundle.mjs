// Browser bundle: esbuild, minified, gzipped, of the same small app written with
// rxgate (streamed response, then a video task) and with openai (responses only).
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

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
  return { rxgate: await size('./apps/rxgate-app.mjs'), openai: await size('./apps/openai-app.mjs') }
}
