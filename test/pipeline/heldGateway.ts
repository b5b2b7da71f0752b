import { createClient, type Client } from '../../src/client.js'
import type { ResponseEvent } from '../../src/hooks.js'
import { KEY, response } from '../helpers/fixtures.js'
import { sendJson, startServer, waitFor, type SeenRequest, type TestServer } from '../helpers/server.js'

/** A loopback gateway whose replies wait for the test, and a client of it. */
export interface HeldGateway {
  readonly server: TestServer
  readonly client: Client
  /** How each request the client made ended, in order of ending (`'ok'`, `'error'`, `'aborted'`). */
  readonly outcomes: ResponseEvent['outcome'][]
  /** The request whose input is `input`, once it has arrived. */
  request(input: string): Promise<SeenRequest>
  /** Answers the request for `input` with a Response whose text is `input`, or with an HTTP error `status`. */
  answer(input: string, status?: number): Promise<void>
  /** The inputs of the requests the gateway received, in order. */
  inputs(): string[]
}

/**
 * Every POST gets a reply only when {@link HeldGateway.answer} is called for
 * its input: the test decides which call finishes when, and the requests
 * it never answers stay in flight (the server records whether the client
 * closed them).
 */
export async function heldGateway(): Promise<HeldGateway> {
  const replies = new Map<string, (status: number) => void>()
  const server = await startServer(
    (req, res) =>
      new Promise<void>((resolve) => {
        const input = (req.json as { input: string }).input
        replies.set(input, (status) => {
          if (status === 200) {
            const output = [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: input }] }]
            sendJson(res, 200, response({ id: `resp_${input}`, output, output_text: input }))
          } else sendJson(res, status, { error: { message: `no answer for ${input}`, type: 'invalid_request_error' } })
          resolve()
        })
      }),
  )
  const outcomes: ResponseEvent['outcome'][] = []
  const client = createClient({ baseUrl: server.url, apiKey: KEY, hooks: { onResponse: (e) => outcomes.push(e.outcome) } })
  const inputs = () => server.requests.map((r) => (r.json as { input: string }).input)
  const request = async (input: string) => {
    await waitFor(() => replies.has(input), 3_000, `the request for ${input}`)
    return server.requests[inputs().indexOf(input)]!
  }
  return {
    server,
    client,
    outcomes,
    request,
    inputs,
    answer: async (input, status = 200) => {
      await request(input)
      replies.get(input)!(status)
    },
  }
}
