import { describe, expect, it } from 'vitest'
import { KEY, post, simulator, startProxy } from './helpers.js'

// The gateway repeats what a caller wrote (instructions, metadata, a model name in an error).
// If the relay masked every 8-character stretch of its key, a caller who knows the key's
// public prefix could send the last 7 known characters followed by each possible next one,
// see which came back masked, and read the key one character per request.
describe('the relay masks the whole key only, so its mask tells a caller nothing', () => {
  it('a caller guessing the key character by character through echoed text learns nothing', async () => {
    const sim = await simulator()
    const { base } = await startProxy({ baseUrl: sim.url, authorize: () => true })
    const known = KEY.slice(0, 10)
    const alphabet = [...new Set(KEY)].join('')
    const guesses = [...alphabet].map((c) => known.slice(-7) + c)
    const res = await post(`${base}/vendors/vendor-a/v1/responses`, { model: 'gpt-4.1-mini', input: 'hi', instructions: guesses.join(' ') })
    expect(res.status).toBe(200)
    // Every guess comes back as it was sent: none is told apart from the rest.
    expect(((await res.json()) as { instructions: string }).instructions).toBe(guesses.join(' '))
  })

  it('still masks the whole key wherever the gateway echoes it, in a reply and in a stream', async () => {
    const sim = await simulator()
    const { base } = await startProxy({ baseUrl: sim.url, authorize: () => true })
    const single = await post(`${base}/vendors/vendor-a/v1/responses`, { model: 'gpt-4.1-mini', input: 'hi', instructions: `key ${KEY} and ${KEY.slice(0, -1)}` })
    expect(((await single.json()) as { instructions: string }).instructions).toBe(`key [redacted] and ${KEY.slice(0, -1)}`)
    const stream = await post(`${base}/vendors/vendor-a/v1/responses`, { model: 'gpt-4.1-mini', input: 'hi', stream: true, instructions: `key ${KEY}` })
    const text = await stream.text()
    expect(text).not.toContain(KEY)
    expect(text).toContain('key [redacted]')
  })
})
