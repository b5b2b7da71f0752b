import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RESPONSES_PATH, TASK_MODELS } from '../../src/contract/paths.js'

/** Text a remote party writes to take over a terminal: a clipboard write, a hyperlink, a line wiped and overwritten. */
export const ATTACK = {
  clipboard: '\x1b]52;c;cm0gLXJmIH4=\x07',
  link: '\x1b]8;;http://evil.test/\x07docs\x1b]8;;\x07',
  wipe: 'rm -rf ~\r\x1b[2Kls',
  csi: '\u009b2J',
  bidi: '\u202efdp.exe',
} as const

/** The streamed text: every attack between plain words. */
export const STREAMED = `Hello ${ATTACK.clipboard}${ATTACK.link} ${ATTACK.wipe} ${ATTACK.csi}${ATTACK.bidi}\r\nbye`

/** A line an error detail tries to add below the error, as if rxgate had printed it. */
export const FORGED = 'rxgate: follow it again with: rxgate task t2vSpark evil'

/** A result URL holding a line break and a second "URL" after it: a parser drops the line break, a line reader would see two URLs. */
export const SPLIT_URL = 'http://files.example.test/v.mp4?sig=1\nhttp://evil.test/run.sh'

/** A task id the gateway answers as completed, its video at `/slow.mp4` of the gateway: 1,000 of 100,000 bytes, then nothing more. */
export const STALLED_TASK = randomUUID()

/** A task id the gateway answers as failed, its error title and detail carrying the attacks. */
export const FAILED_TASK = randomUUID()

const response = (status: string) =>
  JSON.stringify({ id: 'resp_1', object: 'response', created_at: 1700000000, model: 'm', status, output: [], usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } })

function stream(): string {
  let seq = 0
  const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`
  let out = frame('response.created', { response: JSON.parse(response('in_progress')) as unknown })
  for (let i = 0; i < STREAMED.length; i += 4) {
    out += frame('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: STREAMED.slice(i, i + 4) })
  }
  return out + frame('response.completed', { response: JSON.parse(response('completed')) as unknown })
}

/**
 * A gateway whose words attack the terminal they are printed on:
 * - `POST` responses with `stream: true`: text deltas of {@link STREAMED};
 * - `POST` responses with `model: "deny"`: a 400 whose message holds escape
 *   sequences and a line break followed by {@link FORGED};
 * - `GET` the t2vSpark task {@link FAILED_TASK}: failed, its error's title
 *   and detail holding escape sequences;
 * - `GET` the t2vSpark task {@link STALLED_TASK}: completed, its video a download that stalls.
 */
export async function startHostileGateway(): Promise<{ url: string; close: () => Promise<void> }> {
  const t2v = TASK_MODELS.find((m) => m.key === 't2vSpark')!
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c))
    req.on('end', () => {
      if (req.method === 'GET' && req.url === `${t2v.resultPath}/${FAILED_TASK}`) {
        const at = new Date().toISOString()
        const error = { code: 3001, title: `Render failed${ATTACK.clipboard}`, detail: `see ${ATTACK.link}\n${FORGED}` }
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.end(JSON.stringify({ task_info: { id: FAILED_TASK, status: 'failed', created_at: at, updated_at: at, error } }))
      }
      if (req.method === 'GET' && req.url === `${t2v.resultPath}/${STALLED_TASK}`) {
        const at = new Date().toISOString()
        res.writeHead(200, { 'content-type': 'application/json' })
        const videos = [`http://${req.headers.host}/slow.mp4`]
        return void res.end(JSON.stringify({ task_info: { id: STALLED_TASK, status: 'completed', created_at: at, updated_at: at }, videos }))
      }
      if (req.method === 'GET' && req.url === '/slow.mp4') {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '100000' })
        return void res.write(Buffer.alloc(1000))
      }
      if (req.method !== 'POST' || req.url !== RESPONSES_PATH) return void res.writeHead(404).end()
      const request = JSON.parse(body || '{}') as { model?: string; stream?: boolean }
      if (request.model === 'deny') {
        res.writeHead(400, { 'content-type': 'application/json' })
        return void res.end(JSON.stringify({ error: { message: `Bad model${ATTACK.clipboard}${ATTACK.wipe}\n${FORGED}`, type: 'invalid_request_error', code: 'bad_model' } }))
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(stream())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
