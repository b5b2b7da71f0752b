import { afterEach, describe, expect, it, vi } from 'vitest'
import { runInProcess } from './inProcess.js'

// A failure the CLI has no words for (a bug, a broken environment) is still one line on stderr,
// masked of the key and free of terminal escapes, with exit code 1: never a stack trace.

const KEY = 'sk-test-0123456789abcdef'
const connect = vi.hoisted(() => vi.fn())
vi.mock('../../src/cli/env.js', async (original) => ({ ...(await original<object>()), connect }))

afterEach(() => connect.mockReset())

describe('rxgate CLI: an unexpected failure', () => {
  it('is one masked line with exit code 1, not a rejected promise and a stack', async () => {
    connect.mockRejectedValue(new TypeError(`socket said ${KEY}\n    at evil (\u001b]52;c;aGk=\u0007)`))
    const run = await runInProcess(['respond', 'hi'], { GATEWAY_BASE_URL: 'https://gateway.example.test', GATEWAY_API_KEY: KEY })
    expect(run.code).toBe(1)
    expect(run.stderr).not.toContain(KEY)
    expect(run.stderr).not.toContain('\u001b')
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).toMatch(/^rxgate: unexpected failure: TypeError: socket said \S+/)
  })

  it('a connection that fails to close is reported the same way, after the command', async () => {
    connect.mockResolvedValue({ embedded: false, gateway: {}, close: () => Promise.reject(new Error(`close failed for ${KEY}`)) })
    const run = await runInProcess(['task', 't2vSpark', '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'], { GATEWAY_BASE_URL: 'https://gateway.example.test', GATEWAY_API_KEY: KEY })
    expect(run.stderr).not.toContain(KEY)
    expect(run.stderr).toMatch(/\nrxgate: unexpected failure: Error: close failed for \S+\.\n$/)
  })

  it('a value thrown that is not an Error is shown as text', async () => {
    connect.mockRejectedValue('gone')
    const run = await runInProcess(['respond', 'hi'], { GATEWAY_BASE_URL: 'https://gateway.example.test', GATEWAY_API_KEY: KEY })
    expect(run).toMatchObject({ code: 1, stderr: 'rxgate: unexpected failure: gone.\n' })
  })
})
