// A minimal task gateway in its own process (so its CPU is not counted as the
// client's): every task is `processing` forever. Reports the request count on demand.
import { createServer } from 'node:http'

let requests = 0
const server = createServer((req, res) => {
  requests++
  const id = req.url.slice(req.url.lastIndexOf('/') + 1)
  const now = new Date().toISOString()
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ task_info: { id, status: 'processing', created_at: now, updated_at: now } }))
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', (message) => {
  if (message === 'count') process.send({ requests })
  if (message === 'stop') {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  }
})
