import { describe, expect, it, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { wholeNumber } from '../../src/cli/wholeNumber.js'

// Whole-number flags take decimal digits only: what Number() would also read (hex, exponents, decimals) is bad input.

async function run(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    return { code: await main(args, {}), stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}

describe('wholeNumber', () => {
  it.for<[string, number]>([
    ['200', 200],
    [' 5 ', 5],
    ['0', 0],
    ['0x10', Number.NaN],
    ['1e3', Number.NaN],
    ['5.0', Number.NaN],
    ['0b1', Number.NaN],
    ['-1', Number.NaN],
    ['Infinity', Number.NaN],
    ['9'.repeat(16), Number.NaN],
  ])('%j → %d', ([text, expected]) => {
    expect(wholeNumber(text)).toBe(expected)
  })
})

describe('rxgate CLI: numbers written otherwise than in digits', () => {
  it.for<[string[], RegExp]>([
    [['video', 'x', '--poll-ms', '0x10'], /^rxgate: --poll-ms must be a whole number of milliseconds from 1 to 3600000 \(got "0x10"\)\./],
    [['task', 't2vSpark', '00000000-0000-4000-8000-000000000000', '--poll-ms', '1e3'], /^rxgate: --poll-ms must be a whole number/],
    [['video', 'x', '--duration', '0x5'], /^rxgate: InvalidRequestError: .*duration/],
    [['video', 'x', '--duration', '5.0'], /^rxgate: InvalidRequestError: .*duration/],
    [['sim', '--port', '0x0'], /^rxgate: sim: --port must be an integer from 0 to 65535 \(got "0x0"\)\./],
  ])('%j: exit 2 before anything starts', async ([args, line]) => {
    const { code, stderr } = await run(args)
    expect(code).toBe(2)
    expect(stderr).toMatch(line)
    expect(stderr).not.toMatch(/embedded gateway simulator/)
  })
})
