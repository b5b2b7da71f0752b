import type { Observable } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpoints, isHttpError, isInvalidRequestError, responses$, task$, textToVideo$, type Client } from '../../src/index.js'
import { startSimulator, type Simulator } from '../../src/sim/index.js'
import { errorOf, names, raw, recordingClient } from './harness.js'
import { RESPONSE_RULES, STORED_RESPONSE_ID, TASK_ID_RULES, TEXT_TO_VIDEO_RULES, type RequestRule } from './requestRules.js'
import { RESPONSES_PATH, RESULT_PATHS, TEXT_TO_VIDEO_PATH } from './spec.js'

// Every row of the request tables against both sides:
// - the client, through its public function and a recording transport:
//   a refused body ends in InvalidRequestError naming the field and nothing
//   is sent; an accepted one is sent, as it was given;
// - the simulator, the same body sent raw: 400 whose `param` names the
//   field, or accepted (200 for a response, 202 for a task).

let sim: Simulator
let storedId: string

beforeAll(async () => {
  sim = await startSimulator({ streamDelayMs: 0 })
  const stored = await raw(sim, 'POST', RESPONSES_PATH, { model: 'gpt-4o', input: 'Say hi' })
  expect(stored.status).toBe(200)
  storedId = stored.json.id
})
afterAll(() => sim?.close())

/** The row's body, with the stored response's id where the row asks for one. */
function bodyOf(rule: RequestRule): Record<string, unknown> {
  return Object.fromEntries(Object.entries(rule.body).map(([key, value]) => [key, value === STORED_RESPONSE_ID ? storedId : value]))
}

interface Endpoint {
  readonly name: string
  readonly path: string
  readonly accepted: number
  readonly rules: readonly RequestRule[]
  readonly call: (client: Client, body: Record<string, unknown>) => Observable<unknown>
}

const ENDPOINTS: readonly Endpoint[] = [
  { name: `POST ${RESPONSES_PATH}`, path: RESPONSES_PATH, accepted: 200, rules: RESPONSE_RULES, call: (client, body) => responses$(client, body as never) },
  // checkAudio: false keeps the client off the network: the audio file rules are not the subject here.
  { name: `POST ${TEXT_TO_VIDEO_PATH}`, path: TEXT_TO_VIDEO_PATH, accepted: 202, rules: TEXT_TO_VIDEO_RULES, call: (client, body) => textToVideo$(client, body as never, { checkAudio: false }) },
]

const verdict = (rule: RequestRule) => (rule.refuses === undefined ? 'accepted' : `refused, naming ${rule.refuses}`)

describe.each(ENDPOINTS)('$name', ({ path, accepted, rules, call }) => {
  describe.each(rules.map((rule) => ({ ...rule, verdict: verdict(rule) })))('$title: $verdict', (rule) => {
    it('client', async () => {
      const { client, sent } = recordingClient()
      const body = bodyOf(rule)
      const error = await errorOf(call(client, body))
      if (rule.refuses !== undefined) {
        expect(isInvalidRequestError(error), String(error)).toBe(true)
        const paths = (error as { issues: { path: string }[] }).issues.map((issue) => issue.path)
        expect(paths.some((p) => names(p, rule.refuses!)), `issues name ${JSON.stringify(paths)}`).toBe(true)
        expect(sent).toHaveLength(0)
      } else {
        expect(isInvalidRequestError(error), String(error)).toBe(false)
        expect(isHttpError(error) && error.status === 418, String(error)).toBe(true)
        expect(sent).toHaveLength(1)
        expect(sent[0]!.method).toBe('POST')
        expect(new URL(sent[0]!.url).pathname).toBe(path)
        expect(sent[0]!.body).toBe(JSON.stringify(body))
        // SPEC "Authentication" and "Endpoints": a bearer token in the header, a JSON body.
        expect(sent[0]!.headers.authorization).toBe('Bearer contract-key')
        expect(sent[0]!.headers['content-type']).toBe('application/json')
      }
    })

    it('simulator', async () => {
      const reply = await raw(sim, 'POST', path, bodyOf(rule))
      if (rule.refuses !== undefined) {
        expect(reply.status, reply.text).toBe(400)
        expect(names(reply.json?.error?.param, rule.refuses), `param ${JSON.stringify(reply.json?.error?.param)}`).toBe(true)
      } else {
        expect(reply.status, reply.text.slice(0, 300)).toBe(accepted)
      }
    })
  })
})

describe.each(RESULT_PATHS)('GET $path/{task_id}', ({ key, path }) => {
  describe.each(TASK_ID_RULES.map((rule) => ({ ...rule, verdict: rule.accepted ? 'sent' : 'refused, naming taskId' })))('task_id $title: $verdict', (rule) => {
    it('client', async () => {
      const { client, sent } = recordingClient()
      const error = await errorOf(task$(client, endpoints[key], rule.id))
      if (rule.accepted) {
        expect(isHttpError(error) && error.status === 418, String(error)).toBe(true)
        expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([`GET ${path}/${rule.id}`])
        expect(sent[0]!.body).toBeUndefined()
        expect(sent[0]!.headers.authorization).toBe('Bearer contract-key')
      } else {
        expect(isInvalidRequestError(error), String(error)).toBe(true)
        expect((error as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual(['taskId'])
        expect(sent).toHaveLength(0)
      }
    })

    // The simulator knows no task of that id either way: a well-formed unknown id and a malformed one are both a 404.
    // (An id that is not one path segment cannot be sent raw as one: fetch would resolve it.)
    if (rule.id !== '' && !rule.id.includes('/')) {
      it('simulator', async () => {
        const reply = await raw(sim, 'GET', `${path}/${rule.id}`)
        expect(reply.status, reply.text).toBe(404)
      })
    }
  })
})
