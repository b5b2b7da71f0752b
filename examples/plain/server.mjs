// Serves the plain page and rxgate/server in front of the embedded gateway
// simulator (or a real gateway when GATEWAY_BASE_URL and GATEWAY_API_KEY are
// set): `npm run build` in the repository, then `node examples/plain/server.mjs`.
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { build } from 'esbuild'
import { createGatewayHandler, nodeListener } from 'rxgate/server'
import { startSimulator } from 'rxgate/sim'

const here = new URL('.', import.meta.url).pathname

if (!process.env.GATEWAY_BASE_URL) {
  // Frames 40 ms apart, so the text visibly streams in.
  const sim = await startSimulator({ streamDelayMs: 40, apiKey: `sim-${randomUUID()}` })
  process.env.GATEWAY_BASE_URL = sim.url
  process.env.GATEWAY_API_KEY = sim.apiKey
  console.log(`Gateway simulator at ${sim.url}`)
}

// Only the server holds the key. Open to every caller on purpose: this demo
// listens on 127.0.0.1 only, for the person at this machine, and the relay
// then answers only requests to a loopback name from a loopback page (so a
// site whose name is made to resolve to 127.0.0.1 cannot use it). A server
// others can reach passes `authorize` (its session check, a rate limit) instead.
const gateway = nodeListener(
  createGatewayHandler({ baseUrl: process.env.GATEWAY_BASE_URL, apiKey: process.env.GATEWAY_API_KEY, basePath: '/api/rxgate', allowUnauthenticated: true }),
)

// The page's script, bundled for the browser: rxgate's `browser` build (fetch, no undici).
const { outputFiles } = await build({ entryPoints: [`${here}app.js`], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'error' })
const pages = {
  '/': { type: 'text/html; charset=utf-8', body: await readFile(`${here}index.html`) },
  '/app.js': { type: 'text/javascript; charset=utf-8', body: outputFiles[0].contents },
}

const server = createServer((req, res) => {
  if (req.url?.startsWith('/api/rxgate/')) return gateway(req, res)
  const page = pages[new URL(req.url ?? '/', 'http://localhost').pathname]
  res.writeHead(page ? 200 : 404, { 'content-type': page?.type ?? 'text/plain', 'cache-control': 'no-store' })
  res.end(page?.body ?? 'Not found')
})
server.listen(Number(process.env.PORT ?? 4100), '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${server.address().port}`))
