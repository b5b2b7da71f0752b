import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { responses$ } from '../../src/responses$.js'
import { collect } from '../helpers/collect.js'
import { KEY } from '../helpers/fixtures.js'
import { within } from '../helpers/server.js'
import { startFaultGateway, type ResponseFault } from './gateway.js'

// Bounded memory against a gateway that never stops sending: with the limits
// of the issue (maxEventBytes 4 MiB, maxBodyBytes 8 MiB) the client takes no
// more than the limit (plus what the sockets buffer) before it aborts, so the
// gateway manages to write only that much.

const MiB = 1024 * 1024
const SOCKET_BUFFERS = 8 * MiB

describe('a gateway that never stops sending', () => {
  it.each([
    ['an endless stream line', 'endless-line', true, 'maxEventBytes', 4 * MiB],
    ['an endless chunked JSON body', 'endless-body', false, 'maxBodyBytes', 8 * MiB],
    ['a JSON body announced as 64 MiB', 'huge-body', false, 'maxBodyBytes', 8 * MiB],
  ] as const)('%s: PayloadTooLargeError naming %s, after the gateway wrote at most the limit and the socket buffers', async (_, fault, stream, limit, bytes) => {
    const gateway = await startFaultGateway({ plan: (kind) => (kind === 'response' ? (fault as ResponseFault) : undefined) })
    try {
      const client = createClient({ baseUrl: gateway.url, apiKey: KEY, maxEventBytes: 4 * MiB, maxBodyBytes: 8 * MiB, retry: false })
      const { error } = await within(collect(responses$(client, { model: 'm', input: 'x', stream })), 10_000, 'the PayloadTooLargeError')
      expect(error).toMatchObject({ name: 'PayloadTooLargeError', limit, limitBytes: bytes })
      expect(gateway.endlessBytes()).toBeLessThan(bytes + SOCKET_BUFFERS)
    } finally {
      await gateway.close()
    }
  })
})
