// What each part of rxgate costs the stream-only browser app (bench/apps/rxgate-stream-app.mjs):
// the app is bundled as bench/bundle.mjs bundles it, then again with the part's modules
// replaced by empty exports, and the difference in gzipped bytes is the part's cost.
// "every optional part" replaces all the parts a stream needs only on some calls or with
// some options at once: what is left is the least a stream-only app could weigh with
// today's validation, errors and transport. Run: npm run build && node bench/bundleParts.mjs
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const APP = new URL('./apps/rxgate-stream-app.mjs', import.meta.url).pathname

/** The parts, by their modules under dist/browser/. */
export const OPTIONAL_PARTS = {
  'key masking of errors': ['errors/scrubGraph', 'errors/keySpans', 'errors/jsonEscapes', 'errors/redact'],
  '429 and rate budget (token budget included)': ['policy/budget', 'policy/tokenBudget', 'policy/tokenEstimate', 'policy/alarm'],
  'hooks, usage, telemetry seam': ['hooks', 'usage', 'telemetry'],
  'tool, reasoning and audio event schemas': ['validation/toolEvents', 'validation/toolItems', 'validation/reasoningEvents', 'validation/audioEvents'],
  'background polling and resend advice': ['policy/loop', 'errors/resendAdvice'],
}
export const CORE_PARTS = {
  'client option schema': ['clientOptions'],
  'request schema': ['validation/responseRequest'],
  'HTTP error messages': ['errors/HttpError', 'errors/parseErrorBody', 'errors/preview'],
  'transport (exchange, retries, timeouts)': ['transport/exchange', 'transport/observeExchange'],
}

/** Gzipped size of the app with the given modules emptied (each export kept, as a function that does nothing). */
async function gzipped(emptied) {
  const empty = {
    name: 'empty',
    setup(b) {
      b.onLoad({ filter: /dist\/browser\/.*\.js$/ }, (args) => {
        if (!emptied.some((m) => args.path.endsWith(`/dist/browser/${m}.js`))) return undefined
        const names = [...readFileSync(args.path, 'utf8').matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
          m[1].split(',').map((name) => name.trim().split(/\s+as\s+/).pop()).filter(Boolean),
        )
        return { contents: names.map((n) => (n === 'default' ? 'export default function () {}' : `export function ${n}() {}`)).join('\n'), loader: 'js' }
      })
    },
  }
  const result = await build({ entryPoints: [APP], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent', plugins: [empty] })
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length
}

export async function bundleParts() {
  const whole = await gzipped([])
  const cost = async (modules) => whole - (await gzipped(modules))
  const parts = {}
  for (const [name, modules] of Object.entries({ ...OPTIONAL_PARTS, ...CORE_PARTS })) parts[name] = await cost(modules)
  return { whole, parts, everyOptionalPart: await cost(Object.values(OPTIONAL_PARTS).flat()) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
  const { whole, parts, everyOptionalPart } = await bundleParts()
  console.log(`stream-only app: ${kb(whole)} (min+gz)`)
  for (const [name, bytes] of Object.entries(parts)) console.log(`  ${name.padEnd(44)} ${kb(bytes)}`)
  console.log(`  ${'every optional part at once'.padEnd(44)} ${kb(everyOptionalPart)}, leaving ${kb(whole - everyOptionalPart)}`)
}
