import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fragmentsOf } from '../helpers/secrets.js'

/** The key the hostile gateway echoes: long, and mixing letters, digits and a slash. */
export const SECRET = 'sk-live/7f3a9c2e51d84b6a0cQ'

/** `text` with each character after the first `plain` written as a JSON `\uXXXX` escape, hex case alternating, and `/` as `\/`. */
export function escaped(text: string, plain = 3): string {
  return [...text]
    .map((c, i) => {
      if (i < plain) return c
      if (c === '/') return '\\/'
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0')
      return `\\u${i % 2 ? hex.toUpperCase() : hex}`
    })
    .join('')
}

/** Whether any 8 consecutive characters of the key appear in `text`. */
export function leaks(text: string, key = SECRET): boolean {
  return fragmentsOf(key).some((f) => text.includes(f))
}

const response = (status: string, extra: Record<string, unknown> = {}) =>
  `{"id":"resp_1","object":"response","created_at":1700000000,"model":"${escaped(SECRET)}","status":"${status}","output":[],${Object.entries(extra)
    .map(([k, v]) => `"${k}":${JSON.stringify(v)}`)
    .join(',')}${Object.keys(extra).length ? ',' : ''}"usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}`

/** A stream whose text deltas spell `the key is <key>.` a few characters at a time. */
function spelled(): string {
  const text = `the key is ${SECRET}.`
  let seq = 0
  const frame = (type: string, data: string) => `event: ${type}\ndata: {"type":"${type}","sequence_number":${seq++},${data}}\n\n`
  let out = frame('response.created', `"response":${response('in_progress')}`)
  for (let i = 0; i < text.length; i += 3) {
    out += frame('response.output_text.delta', `"item_id":"msg_1","output_index":0,"content_index":0,"delta":"${escaped(text.slice(i, i + 3), 0)}"`)
  }
  return out + frame('response.completed', `"response":${response('completed')}`)
}

/**
 * A gateway that echoes the key it is sent, escaped so that only a JSON
 * decoder shows it, in every way a reply can carry text:
 * - `model: "ok"`: a 200 JSON Response whose `model` is the key;
 * - `model: "deny"`: a 401 whose error body quotes the key;
 * - `stream: true`: events whose `model` is the key, then an SSE `error`
 *   event quoting it, written a few bytes at a time so the key and its
 *   escapes are split across chunks.
 * - `stream: true, input: "spell"`: text deltas that spell the key three
 *   characters at a time, then `response.completed`.
 * It records the authorization it was sent.
 */
export async function startMaskingGateway(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c))
    req.on('end', () => {
      seen.push(req.headers.authorization ?? '')
      const request = JSON.parse(body || '{}') as { model?: string; stream?: boolean }
      if (request.model === 'deny') {
        res.writeHead(401, { 'content-type': 'application/json' })
        res.end(`{"error":{"message":"Incorrect API key provided: ${escaped(SECRET, 0)}","type":"invalid_request_error","code":"invalid_api_key"}}`)
        return
      }
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(response('completed'))
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      if ((request as { input?: unknown }).input === 'spell') return void res.end(spelled())
      const events =
        `event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":${response('in_progress')}}\n\n` +
        `event: error\ndata: {"type":"error","sequence_number":1,"code":"bad_key","message":"key ${escaped(SECRET, 1)} is not allowed"}\n\n`
      // Five bytes at a time: every escape and the key itself are cut somewhere.
      const bytes = Buffer.from(events)
      let at = 0
      const pump = () => {
        if (at >= bytes.length) return void res.end()
        res.write(bytes.subarray(at, at + 5))
        at += 5
        setImmediate(pump)
      }
      pump()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
