import { describe, expect, it } from 'vitest'
import { estimateTokens } from '../../src/policy/tokenEstimate.js'

const estimate = (body: Record<string, unknown>, guess = 1_000) => estimateTokens(JSON.stringify({ model: 'gpt-4.1-mini', ...body }), guess)

describe('estimateTokens', () => {
  it.each([
    ['a string input: its characters / 4, rounded up', { input: 'Say hi' }, 2],
    ['instructions count as input', { instructions: 'x'.repeat(8), input: 'x'.repeat(5) }, 2 + 2],
    [
      'message items: string contents and text parts',
      { input: [{ role: 'user', content: 'x'.repeat(40) }, { role: 'user', content: [{ type: 'input_text', text: 'x'.repeat(40) }] }] },
      20,
    ],
    ['tool calls and outputs: arguments and output', { input: [{ type: 'function_call', name: 'f', arguments: 'x'.repeat(12) }, { type: 'function_call_output', output: 'x'.repeat(4) }] }, 4],
    ['images are not counted by their characters', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${'A'.repeat(40_000)}` }] }] }, 0],
    ['no input', {}, 0],
    ['the model name and other fields are not input', { temperature: 1, metadata: { a: 'x'.repeat(400) } }, 0],
  ])('%s', (_, body, input) => {
    expect(estimate(body).input).toBe(input)
  })

  it('takes max_output_tokens as the output when the body gives it, else the guess', () => {
    expect(estimate({ input: 'hi', max_output_tokens: 50 })).toEqual({ input: 1, output: 50, outputGiven: true })
    expect(estimate({ input: 'hi' }, 700)).toEqual({ input: 1, output: 700, outputGiven: false })
    expect(estimate({ input: 'hi', max_output_tokens: null }, 700)).toEqual({ input: 1, output: 700, outputGiven: false })
  })

  it('counts a body that is not JSON as input, and stops at nesting no prompt holds', () => {
    expect(estimateTokens('not json at all', 10)).toEqual({ input: 4, output: 10, outputGiven: false })
    let deep: unknown = 'x'.repeat(400)
    for (let i = 0; i < 20; i++) deep = [deep]
    expect(estimate({ input: deep }).input).toBe(0)
  })
})
