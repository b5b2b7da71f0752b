// Serves the built example (`npm run build` first) in front of rxgate's embedded
// gateway simulator, or in front of a real gateway when GATEWAY_BASE_URL and
// GATEWAY_API_KEY are set. Open the address it prints.
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import { startSimulator } from 'rxgate/sim'

if (!process.env.GATEWAY_BASE_URL) {
  // Frames 40 ms apart, so the text visibly streams in.
  const sim = await startSimulator({ streamDelayMs: 40, apiKey: `sim-${randomUUID()}` })
  process.env.GATEWAY_BASE_URL = sim.url
  process.env.GATEWAY_API_KEY = sim.apiKey
  console.log(`Gateway simulator at ${sim.url}`)
}

const { reqHandler } = await import('./dist/rxgate-example/server/server.mjs')
const server = createServer((req, res) => void reqHandler(req, res))
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${server.address().port}`))
