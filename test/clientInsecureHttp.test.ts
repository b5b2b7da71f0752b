import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClient } from '../src/client.js'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'
import type { Transport } from '../src/transport/types.js'

// A bearer key sent over plain http can be read by anyone on the way, and
// used: createClient refuses it unless told, before anything is sent.

const KEY = 'sk-live-0123456789abcdef'
afterEach(() => vi.unstubAllGlobals())

/** A transport that counts what it is asked to send. */
function counting(): { transport: Transport; sent: () => number } {
  let sent = 0
  const transport: Transport = () => {
    sent++
    return Promise.reject(new Error('nothing should be sent'))
  }
  return { transport, sent: () => sent }
}

/** What createClient throws for these options, or undefined. */
function refusal(options: Parameters<typeof createClient>[0]): InvalidRequestError | undefined {
  try {
    createClient(options)
    return undefined
  } catch (error) {
    if (error instanceof InvalidRequestError) return error
    throw error
  }
}

describe('createClient: an apiKey over plain http to another machine', () => {
  it.each([
    ['http://gateway.example.com', 'gateway.example.com'],
    ['http://gateway.example.com:8080/v1', 'gateway.example.com'],
    ['http://10.0.0.5:8080', '10.0.0.5'],
    ['http://[fd00::1]/', '[fd00::1]'],
    ['http://localhost.evil.test', 'localhost.evil.test'],
    ['http://127.0.0.1.nip.io', '127.0.0.1.nip.io'],
    // A name under localhost may be sent to DNS by the C library's resolver, and answered from afar.
    ['http://app.localhost:3000', 'app.localhost'],
  ])('%s: InvalidRequestError at baseUrl naming https:// and allowInsecureHttp; nothing is sent', (baseUrl, host) => {
    const { transport, sent } = counting()
    const error = refusal({ baseUrl, apiKey: KEY, transport })
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error!.issues).toEqual([
      { path: 'baseUrl', message: `is http:// to ${host}, not this machine: apiKey would cross the network in clear text; use https://, or pass allowInsecureHttp: true to send it anyway` },
    ])
    expect(error!.message).not.toContain(KEY)
    expect(sent()).toBe(0)
  })

  it.each([
    'http://localhost:8787',
    'http://LOCALHOST./',
    'http://127.0.0.1:8787',
    'http://127.255.0.9',
    'http://[::1]:8787',
    'http://[0:0:0:0:0:0:0:1]:8787',
    'http://2130706433/',
    'https://gateway.example.com',
    'https://10.0.0.5:8443',
  ])('%s: accepted (this machine, or https)', (baseUrl) => {
    expect(refusal({ baseUrl, apiKey: KEY })).toBeUndefined()
  })

  it('allowInsecureHttp: true lets the key go over plain http to another host', () => {
    expect(refusal({ baseUrl: 'http://gateway.internal:8080', apiKey: KEY, allowInsecureHttp: true })).toBeUndefined()
    expect(createClient({ baseUrl: 'http://gateway.internal:8080', apiKey: KEY, allowInsecureHttp: true }).baseUrl).toBe('http://gateway.internal:8080')
  })

  it('allowInsecureHttp: only true opens it; anything but a boolean is refused', () => {
    expect(refusal({ baseUrl: 'http://gateway.internal', apiKey: KEY, allowInsecureHttp: false })?.issues.map((i) => i.path)).toEqual(['baseUrl'])
    expect(refusal({ baseUrl: 'http://gateway.internal', apiKey: KEY, allowInsecureHttp: 'true' as never })?.issues).toEqual([
      { path: 'baseUrl', message: expect.stringContaining('clear text') as string },
      { path: 'allowInsecureHttp', message: 'must be true or false (got string)' },
    ])
  })

  describe('in a browser page', () => {
    const page = (origin: string) => {
      vi.stubGlobal('document', {})
      vi.stubGlobal('location', { origin })
    }

    it('a path of an http page, with no key (the app server holds it): accepted', () => {
      page('http://app.example')
      expect(refusal({ baseUrl: '/api/rxgate' })).toBeUndefined()
      expect(refusal({ baseUrl: 'http://app.example/api/rxgate' })).toBeUndefined()
    })

    it('a key in page code for an http address is refused for the clear text too, even with dangerouslyAllowBrowser', () => {
      page('http://app.example')
      expect(refusal({ baseUrl: '/api/rxgate', apiKey: KEY, dangerouslyAllowBrowser: true })?.issues.map((i) => i.message)).toEqual([
        'is http:// to app.example, not this machine: apiKey would cross the network in clear text; use https://, or pass allowInsecureHttp: true to send it anyway',
      ])
      expect(refusal({ baseUrl: 'http://gateway.example.com', apiKey: KEY, dangerouslyAllowBrowser: true })?.issues.map((i) => i.path)).toEqual(['baseUrl'])
      expect(refusal({ baseUrl: 'https://gateway.example.com', apiKey: KEY, dangerouslyAllowBrowser: true })).toBeUndefined()
    })
  })
})
