import { lastValueFrom } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGateway, InvalidRequestError, type ResponseRequest } from '../../src/index.js'
import { errorOf } from '../helpers/collect.js'
import { KEY, response } from '../helpers/fixtures.js'

/** A fetch that records its calls and answers with a valid Response. */
function spyFetch() {
  return vi.fn<typeof globalThis.fetch>(async () => new Response(JSON.stringify(response()), { status: 200, headers: { 'content-type': 'application/json' } }))
}

function setup() {
  const fetch = spyFetch()
  const gateway = createGateway({ baseUrl: 'https://gateway.test', apiKey: KEY, fetch, retry: false })
  return { fetch, gateway }
}

afterEach(() => {
  vi.restoreAllMocks()
})

/** Sends `body` and expects an InvalidRequestError naming `field` with a message matching `rule`, and no request at all. */
async function rejectionOf(body: unknown, field: string, rule: RegExp): Promise<InvalidRequestError> {
  const { fetch, gateway } = setup()
  const err = await errorOf(gateway.responses$(body as ResponseRequest))
  expect(err).toBeInstanceOf(InvalidRequestError)
  const e = err as InvalidRequestError
  const issue = e.issues.find((i) => i.path === field || i.path.startsWith(`${field}.`))
  expect(issue, `an issue for ${field} in ${JSON.stringify(e.issues)}`).toBeDefined()
  expect(issue!.message).toMatch(rule)
  expect(e.message).toContain(field)
  expect(e.message).toMatch(rule)
  expect(e.message).toMatch(/Nothing was sent/)
  expect(fetch).toHaveBeenCalledTimes(0)
  return e
}

async function expectRejected(body: unknown, field: string, rule: RegExp): Promise<void> {
  await rejectionOf(body, field, rule)
}

async function expectAccepted(body: ResponseRequest): Promise<void> {
  const { fetch, gateway } = setup()
  await lastValueFrom(gateway.responses$({ ...body, stream: false }))
  expect(fetch).toHaveBeenCalledTimes(1)
  expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ ...body, stream: false })
}

describe('model', () => {
  it('is required', () => expectRejected({ input: 'hi' }, 'model', /required/))
  it('must be a string', () => expectRejected({ model: 42 }, 'model', /string/))
  it('must not be empty', () => expectRejected({ model: '' }, 'model', /empty/))
  it('rejects a body that is not an object', async () => {
    for (const body of [null, 'model', 42, []]) {
      const { fetch, gateway } = setup()
      expect(await errorOf(gateway.responses$(body as unknown as ResponseRequest))).toBeInstanceOf(InvalidRequestError)
      expect(fetch).toHaveBeenCalledTimes(0)
    }
  })
})

describe('numeric ranges', () => {
  it.each([
    ['max_output_tokens', 0, /integer from 1/],
    ['max_output_tokens', -5, /integer from 1/],
    ['max_output_tokens', 1.5, /integer/],
    ['max_output_tokens', '100', /number/],
    ['temperature', -0.01, /from 0 to 2/],
    ['temperature', 2.01, /from 0 to 2/],
    ['temperature', '1', /number/],
    ['temperature', Number.NaN, /number|from 0 to 2/],
    ['top_p', -0.1, /from 0 to 1/],
    ['top_p', 1.0001, /from 0 to 1/],
    ['top_p', true, /number/],
    ['top_logprobs', -1, /integer from 0 to 20/],
    ['top_logprobs', 21, /integer from 0 to 20/],
    ['top_logprobs', 2.5, /integer/],
    ['max_tool_calls', -1, /integer/],
    ['max_tool_calls', 0.5, /integer/],
  ])('%s = %j is refused', (field, value, rule) => expectRejected({ model: 'm', [field]: value }, field, rule))

  it('names the value it got', async () => {
    const e = await rejectionOf({ model: 'm', temperature: 3 }, 'temperature', /from 0 to 2/)
    expect(e.message).toContain('3')
  })

  it.each([
    ['max_output_tokens', 1],
    ['max_output_tokens', 1_000_000],
    ['temperature', 0],
    ['temperature', 2],
    ['temperature', 0.7],
    ['top_p', 0],
    ['top_p', 1],
    ['top_logprobs', 0],
    ['top_logprobs', 20],
    ['max_tool_calls', 0],
  ])('%s = %j is accepted', (field, value) => expectAccepted({ model: 'm', [field]: value }))

  it.each(['max_output_tokens', 'max_tool_calls', 'temperature', 'top_p', 'top_logprobs'])('%s = null is accepted', (field) =>
    expectAccepted({ model: 'm', [field]: null }),
  )
})

describe('enumerations', () => {
  it.each(['auto', 'disabled', null])('truncation %j is accepted', (truncation) => expectAccepted({ model: 'm', truncation } as ResponseRequest))
  it.each(['enabled', 'AUTO', '', 1])('truncation %j is refused', (truncation) => expectRejected({ model: 'm', truncation }, 'truncation', /"auto" or "disabled"/))

  it.each(['none', 'auto', 'required'])('tool_choice %j is accepted', (tool_choice) => expectAccepted({ model: 'm', tool_choice } as ResponseRequest))
  it('tool_choice as a tool object is accepted', () => expectAccepted({ model: 'm', tool_choice: { type: 'function', name: 'get_weather' } }))
  it.each(['sometimes', 'Auto', 7, true])('tool_choice %j is refused', (tool_choice) => expectRejected({ model: 'm', tool_choice }, 'tool_choice', /none.*auto.*required/))
})

describe('metadata', () => {
  const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]))

  it('accepts 16 pairs, 64-character keys and 512-character values', () =>
    expectAccepted({ model: 'm', metadata: { ...pairs(15), ['k'.repeat(64)]: 'v'.repeat(512) } }))
  it('refuses 17 pairs', () => expectRejected({ model: 'm', metadata: pairs(17) }, 'metadata', /at most 16/))
  it('refuses a 65-character key', () => expectRejected({ model: 'm', metadata: { ['k'.repeat(65)]: 'v' } }, 'metadata', /at most 64 characters/))
  it('refuses a 513-character value', async () => {
    const e = await rejectionOf({ model: 'm', metadata: { note: 'v'.repeat(513) } }, 'metadata', /at most 512 characters/)
    expect(e.issues.map((i) => i.path)).toContain('metadata.note')
  })
  it('refuses a value that is not a string', () => expectRejected({ model: 'm', metadata: { n: 1 } }, 'metadata', /string/))
  it('refuses metadata that is not an object', () => expectRejected({ model: 'm', metadata: ['a'] }, 'metadata', /object/))
  it('accepts null and empty metadata', async () => {
    await expectAccepted({ model: 'm', metadata: null })
    await expectAccepted({ model: 'm', metadata: {} })
  })
})

describe('the type of every field', () => {
  it.each([
    ['input', 42, /string or an array/],
    ['input', [1], /message objects|string or an array/],
    ['instructions', 1, /string/],
    ['previous_response_id', {}, /string/],
    ['prompt', 'template', /object/],
    ['parallel_tool_calls', 'yes', /true or false/],
    ['stream', 'true', /true or false/],
    ['background', 1, /true or false/],
    ['store', 'no', /true or false/],
    ['text', 'plain', /object/],
    ['tools', 'web_search', /array/],
    ['tools', ['web_search'], /tool objects|object/],
    ['reasoning', 'high', /object/],
    ['user', 7, /string/],
    ['include', 'file_search_call.results', /array of strings/],
    ['include', [1], /string/],
    // An array is an object to JavaScript, not to JSON: these fields must be objects.
    ['prompt', [], /object/],
    ['text', ['plain'], /object/],
    ['reasoning', [], /object/],
    ['tools', [[]], /object/],
    ['tool_choice', [], /none.*auto.*required|object/],
    ['input', [['hi']], /message objects|object/],
  ])('%s = %j is refused', (field, value, rule) => expectRejected({ model: 'm', [field]: value }, field, rule))

  it('accepts a fully specified body as it is, unknown newer fields included', () =>
    expectAccepted({
      model: 'gpt-test',
      input: [{ role: 'user', content: 'hi' }],
      instructions: 'Be brief.',
      previous_response_id: null,
      prompt: { id: 'pmpt_1', variables: { a: 'b' } },
      max_output_tokens: 100,
      max_tool_calls: 2,
      temperature: 1,
      top_p: 0.5,
      top_logprobs: 3,
      parallel_tool_calls: true,
      background: false,
      store: true,
      text: { format: { type: 'text' } },
      tools: [{ type: 'web_search' }],
      tool_choice: 'auto',
      reasoning: { effort: 'low' },
      truncation: 'auto',
      metadata: { a: 'b' },
      user: 'u-1',
      include: ['file_search_call.results'],
      service_tier: 'auto',
    } as ResponseRequest))

  it.each(['instructions', 'previous_response_id', 'parallel_tool_calls', 'store', 'tools', 'truncation', 'user', 'include'])('%s = null is accepted', (field) =>
    expectAccepted({ model: 'm', [field]: null }),
  )
})

describe('several violations', () => {
  it('are all named in one error, and nothing is sent', async () => {
    const { fetch, gateway } = setup()
    const err = (await errorOf(gateway.responses$({ model: '', temperature: 5, top_p: -1 } as ResponseRequest))) as InvalidRequestError
    expect(err.issues.map((i) => i.path).sort()).toEqual(['model', 'temperature', 'top_p'])
    expect(fetch).not.toHaveBeenCalled()
  })

  it('are checked for streamed and background requests too', async () => {
    for (const extra of [{ stream: true }, { background: true }, { stream: true, background: true }]) {
      const { fetch, gateway } = setup()
      const err = await errorOf(gateway.responses$({ model: 'm', temperature: 9, ...extra } as ResponseRequest))
      expect(err).toBeInstanceOf(InvalidRequestError)
      expect(fetch).not.toHaveBeenCalled()
    }
  })

  it('are reported at subscription, not when responses$ is called', () => {
    const { gateway } = setup()
    expect(() => gateway.responses$({ model: 'm', temperature: 9 })).not.toThrow()
  })
})
