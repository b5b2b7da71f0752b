import { describe, expect, it } from 'vitest'
import { countWords, piecesOf, promptOf, replyTo, usageOf } from '../../src/sim/text.js'

describe('simulator text', () => {
  it('writes the same 20–40 word cinematic prompt for the same input, with an em dash', () => {
    expect(replyTo('A fox')).toBe(replyTo('A fox'))
    const replies = Array.from({ length: 500 }, (_, i) => replyTo(`prompt ${i}`))
    expect(new Set(replies).size).toBeGreaterThan(100)
    for (const reply of replies) {
      expect(countWords(reply)).toBeGreaterThanOrEqual(20)
      expect(countWords(reply)).toBeLessThanOrEqual(40)
      expect(reply).toContain(' — ')
    }
  })

  it('splits text into pieces that join back exactly', () => {
    const text = 'Slow dolly-in — a café,  at dusk.'
    expect(piecesOf(text)).toEqual(['Slow', ' dolly-in', ' —', ' a', ' café,', '  at', ' dusk.'])
    expect(piecesOf(text).join('')).toBe(text)
  })

  it('collects the prompt from instructions and string or structured input', () => {
    expect(promptOf('hi', 'be brief')).toBe('be brief\nhi')
    const messages = [{ role: 'user', content: 'one' }, { role: 'user', content: [{ type: 'input_text', text: 'two' }, { type: 'input_image' }] }]
    expect(promptOf(messages, null)).toBe('one\ntwo')
    expect(promptOf(undefined, undefined)).toBe('')
  })

  it('builds usage in both shapes with consistent totals', () => {
    expect(usageOf(3, 4, 'spec')).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 })
    expect(usageOf(3, 4, 'openai')).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7 })
  })
})
