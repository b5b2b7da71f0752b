import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { publicFetch } from '../../src/transport/publicFetch.js'

// allowHosts as a user writes it: checked by createClient, and matched by publicFetch
// (a fetch of the test's own, and hosts written as addresses: no DNS, no network).

const ENTRY = 'must be a hostname, a host:port or an origin such as http://127.0.0.1:8080, without whitespace or control characters'

/** The issues createClient names for these allowHosts, or [] when it takes them. */
function issuesOf(allowHosts: unknown): { path: string; message: string }[] {
  try {
    createClient({ baseUrl: 'https://gateway.test', apiKey: 'k', allowHosts: allowHosts as string[] })
    return []
  } catch (error) {
    if (error instanceof InvalidRequestError) return [...error.issues]
    throw error
  }
}

/** 'sent' when publicFetch with these allowHosts fetches `url`, 'refused' when it refuses it. */
async function outcome(allowHosts: string[], url: string): Promise<'sent' | 'refused'> {
  const fetch = (async () => new Response('ok')) as unknown as typeof globalThis.fetch
  return publicFetch({ field: 'url', what: 'download', fetch, allowHosts })(url).then(
    () => 'sent' as const,
    (e: unknown) => {
      if (e instanceof InvalidRequestError) return 'refused' as const
      throw e
    },
  )
}

describe('allowHosts: what createClient takes', () => {
  it('null is named as null', () => {
    expect(issuesOf(null)).toEqual([{ path: 'allowHosts', message: 'must be an array of hostnames, host:port or origins (got null)' }])
  })

  it.each(['files.internal\u0001', '\u0000files.internal', 'files.\u007finternal', 'http://files.internal\u001f'])('%j: a control character is refused (the URL parser would drop or refuse it)', (entry) => {
    expect(() => createClient({ baseUrl: 'https://gw.test', allowHosts: [entry] })).toThrow(ENTRY)
  })

  it.each(['files.internal ', ' files.internal', '\tfiles.internal'])('%j: whitespace around a name is refused, not trimmed', (entry) => {
    expect(issuesOf([entry])).toEqual([{ path: 'allowHosts[0]', message: `${ENTRY} (got ${JSON.stringify(entry)})` }])
  })

  it.each([
    ':pw@files.internal',
    'http://:pw@files.internal',
    'files.internal#x',
    'http://files.internal#x',
    'files.internal:',
    'files.internal::8080',
    'files.internal/..',
    'http:files.internal://..',
    '127.0.0.1:65536',
  ])('%j: not a hostname, host:port or origin, though the URL parser reads one in it: refused', (entry) => {
    expect(issuesOf([entry]).map((i) => i.path)).toEqual(['allowHosts[0]'])
  })

  it.each(['files.internal', 'files.internal.', 'files.internal/', 'files.internal:8080/', '127.0.0.1:65535', 'fd00::1', 'fd00:0:0:0:0:0:0:1', 'fd00::', '[fd00::1]:8080', 'https://files.internal'])('%j is taken', (entry) => {
    expect(issuesOf([entry])).toEqual([])
  })
})

describe('allowHosts: what publicFetch lets through', () => {
  it('an entry with a control character allows nothing, even where options were not checked first', async () => {
    expect(await outcome(['10.0.0.7\u0001'], 'http://10.0.0.7/a.wav')).toBe('refused')
    expect(await outcome(['10.0.0.7'], 'http://10.0.0.7/a.wav')).toBe('sent')
  })

  it('an entry with a closing slash allows its host', async () => {
    expect(await outcome(['10.0.0.7/'], 'http://10.0.0.7/a.wav')).toBe('sent')
    expect(await outcome(['10.0.0.7:8080/'], 'http://10.0.0.7:8080/a.wav')).toBe('sent')
  })

  it('a port up to 65535', async () => {
    expect(await outcome(['127.0.0.1:65535'], 'http://127.0.0.1:65535/a.wav')).toBe('sent')
    expect(await outcome(['127.0.0.1:65535'], 'http://127.0.0.1:65534/a.wav')).toBe('refused')
  })

  it.each([
    ['fd00::1', 'http://[fd00::1]:9000/a.wav'],
    ['fd00:0:0:0:0:0:0:1', 'http://[fd00::1]/a.wav'],
    ['fd00::', 'http://[fd00::]/a.wav'],
  ])('an IPv6 address written without brackets (%s) allows %s', async (entry, url) => {
    expect(await outcome([entry], url)).toBe('sent')
    expect(await outcome([], url)).toBe('refused')
  })

  it('a trailing dot is the only dot that does not matter', async () => {
    expect(await outcome(['10.0.0.1.'], 'http://10.0.0.1/a.wav')).toBe('sent')
    expect(await outcome(['101.2.3.4'], 'http://10.12.3.4/a.wav')).toBe('refused')
  })
})
