import { createServer } from 'node:http'
import { createParser } from 'eventsource-parser'

/** What the floor sends, as any client must: the same headers and body as rxgate's streamed call. */
export const HEADERS = { authorization: 'Bearer bench-key', 'content-type': 'application/json', accept: 'text/event-stream' }
export const BODY = JSON.stringify({ model: 'm', input: 'x', stream: true })

/** Builds the whole SSE body once: lifecycle events around `count` text deltas. */
export function sseBody(count) {
  const lines = []
  let seq = 0
  const frame = (type, data) => lines.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`)
  const response = (status, extra = {}) => ({ id: 'resp_bench', object: 'response', created_at: 1700000000, model: 'bench', status, output: [], ...extra })
  frame('response.created', { response: response('in_progress') })
  frame('response.in_progress', { response: response('in_progress') })
  frame('response.output_item.added', { output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } })
  frame('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
  let text = ''
  for (let i = 0; i < count; i++) {
    const delta = i % 7 === 0 ? ' café' : ` w${i % 100}`
    text += delta
    frame('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta, logprobs: [] })
  }
  frame('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text, logprobs: [] })
  const item = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }
  frame('response.output_item.done', { output_index: 0, item })
  frame('response.completed', { response: response('completed', { output: [item], usage: { input_tokens: 5, output_tokens: count, total_tokens: count + 5 } }) })
  return { body: Buffer.from(lines.join('')), text, events: seq }
}

/** A loopback server that writes `body` in 16 KB chunks to every POST. */
export function startSseServer(body) {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      let offset = 0
      const pump = () => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + 16384)
          offset += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end()
      }
      pump()
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r) }) })))
}

/** The floor's reader: the text of every `response.output_text.delta` in a body of SSE bytes, with eventsource-parser and `JSON.parse`, nothing validated. */
export async function deltaText(body) {
  let got = ''
  const decoder = new TextDecoder()
  const parser = createParser({
    onEvent: (e) => {
      const event = JSON.parse(e.data)
      if (event.type === 'response.output_text.delta') got += event.delta
    },
  })
  for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }))
  return got
}
