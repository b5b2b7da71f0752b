import { describe, expect, it } from 'vitest'
import { sentence } from '../../src/cli/sentence.js'

describe('sentence', () => {
  it.for<[string, string]>([
    ['Unauthorized.. Check the apiKey', 'Unauthorized. Check the apiKey.'],
    ['Failed. . Try again', 'Failed. Try again.'],
    ['Really?.', 'Really?'],
    ['Done!', 'Done!'],
    ['  note:  ', 'note:'],
  ])('%j → %j', ([text, expected]) => {
    expect(sentence(text)).toBe(expected)
  })

  it.for<[string, string]>([
    ['vendor: must be a path segment (got "..")', 'vendor: must be a path segment (got "..").'],
    ['action: bad (got "..%2f..%2fadmin"). Nothing was sent..', 'action: bad (got "..%2f..%2fadmin"). Nothing was sent.'],
    ['model: bad (got "a\\"..?.")', 'model: bad (got "a\\"..?.").'],
  ])('a quoted value keeps its stops: %j', ([text, expected]) => {
    expect(sentence(text)).toBe(expected)
  })
})
