// A server in its own process that holds every SSE stream open after its first
// event, as a long generation would. Reports how many streams are open.
import { createServer } from 'node:http'

const first = `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp_idle', object: 'response', created_at: 1700000000, model: 'm', status: 'in_progress', output: [] } })}\n\n`
let open = 0
const server = createServer((req, res) => {
  req.resume()
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  res.write(first)
  open++
  res.on('close', () => open--)
})
server.maxConnections = 100_000
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', (message) => {
  if (message === 'count') process.send({ open })
  if (message === 'stop') {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  }
})
