import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { leaks, SECRET, startMaskingGateway } from '../security/maskingGateway.js'
import { runInProcess } from './inProcess.js'

let gateway: Awaited<ReturnType<typeof startMaskingGateway>>
beforeAll(async () => {
  gateway = await startMaskingGateway()
})
afterAll(() => gateway.close())

/** Runs the CLI in this process against the gateway, capturing what it prints. */
const run = (args: string[]) => runInProcess(args, { GATEWAY_BASE_URL: gateway.url, GATEWAY_API_KEY: SECRET })

describe('rxgate CLI output, against a gateway that echoes the key', () => {
  it('respond --json: the Response whose model is the key is printed with the key masked', async () => {
    const { code, stdout } = await run(['respond', 'hi', '--json'])
    expect(code).toBe(0)
    expect(leaks(stdout), stdout).toBe(false)
    expect(JSON.parse(stdout)).toMatchObject({ id: 'resp_1', model: '[redacted]' })
  })

  it('respond --stream: text deltas that spell the key a few characters at a time are printed masked, the rest as it came', async () => {
    const { code, stdout } = await run(['respond', 'spell', '--stream'])
    expect(code).toBe(0)
    expect(stdout).toBe('the key is [redacted].\n')
  })

  it('respond --stream --json: every event line masked', async () => {
    const { code, stdout } = await run(['respond', 'spell', '--stream', '--json'])
    expect(code).toBe(0)
    expect(leaks(stdout), stdout).toBe(false)
    expect(stdout.trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type).at(-1)).toBe('response.completed')
  })

  it('a failure quoting the key: exit 1, the key nowhere on stderr', async () => {
    const { code, stdout, stderr } = await run(['respond', 'hi', '--model', 'deny'])
    expect(code).toBe(1)
    expect(stderr).toContain('HttpError')
    expect(leaks(stdout + stderr), stderr).toBe(false)
  })
})
