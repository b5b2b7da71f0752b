import { describe, expect, it } from 'vitest'
import { connect } from '../../src/cli/env.js'
import { UsageError } from '../../src/cli/usageError.js'

// A key sent over plain http to another machine can be read on the way: the CLI refuses it unless told.

const KEY = 'sk-test-0123456789abcdef'
const noLog = () => {}

describe('rxgate CLI: GATEWAY_BASE_URL over plain http', () => {
  it.for(['http://gateway.example.test', 'http://10.0.0.5:8080/api', 'http://[fd00::1]/'])('%s: refused, naming https:// and GATEWAY_ALLOW_HTTP', async (baseUrl) => {
    const refused = connect({ GATEWAY_BASE_URL: baseUrl, GATEWAY_API_KEY: KEY }, noLog)
    await expect(refused).rejects.toBeInstanceOf(UsageError)
    await expect(refused).rejects.toThrow(/clear text; use https:\/\/, or set GATEWAY_ALLOW_HTTP=1/)
  })

  it.for(['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'https://gateway.example.test'])('%s: accepted (this machine, or https)', async (baseUrl) => {
    const connection = await connect({ GATEWAY_BASE_URL: baseUrl, GATEWAY_API_KEY: KEY }, noLog)
    expect(connection.embedded).toBe(false)
    await connection.close()
  })

  it('GATEWAY_ALLOW_HTTP=1 lets plain http to another host through; another value is bad input', async () => {
    const connection = await connect({ GATEWAY_BASE_URL: 'http://gateway.internal', GATEWAY_API_KEY: KEY, GATEWAY_ALLOW_HTTP: '1' }, noLog)
    expect(connection.gateway.client.baseUrl).toMatch(/^http:\/\/gateway\.internal/)
    await expect(connect({ GATEWAY_BASE_URL: 'http://gateway.internal', GATEWAY_API_KEY: KEY, GATEWAY_ALLOW_HTTP: 'yes' }, noLog)).rejects.toThrow(/GATEWAY_ALLOW_HTTP must be 0, 1 or unset/)
  })
})
