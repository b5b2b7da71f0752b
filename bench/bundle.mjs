// Browser bundles: esbuild, minified, gzipped (level 9), of the same small apps,
// built the same way for every library (esbuild's defaults for the browser):
//   rxgate-stream-app   streams a response into the page (createClient, responses$, textDeltas)
//   rxgate-app          the client app: streams a response, then renders it as a video, with
//                       createClient and the standalone functions
//   rxgate-facade-app   the same app on the createGateway facade (which holds every call)
//   rxjs-baseline-app   the rxjs such an app already has (Observable, map, switchMap, share):
//                       rxgate's marginal size is the client app's size minus this
//   angular-app         an Angular app without rxgate, and angular-rxgate-app the same app
//                       streaming through rxgate (injectClient): rxgate's cost on Angular is
//                       the difference (both compiled the same way: see the app files)
//   openai, AI SDK, TanStack AI apps: the text part with each (none has video tasks)
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const APPS = {
  rxgateStream: './apps/rxgate-stream-app.mjs',
  rxgateFacade: './apps/rxgate-facade-app.mjs',
  rxgate: './apps/rxgate-app.mjs',
  rxjsBaseline: './apps/rxjs-baseline-app.mjs',
  angular: './apps/angular-app.mjs',
  angularRxgate: './apps/angular-rxgate-app.mjs',
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
  return {
    ...sizes,
    marginal: sizes.rxgate.gzipped - sizes.rxjsBaseline.gzipped,
    angularMarginal: sizes.angularRxgate.gzipped - sizes.angular.gzipped,
  }
}
