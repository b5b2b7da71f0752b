import { afterEach, describe, expect, it } from 'vitest'
import { parseRetryAfter } from '../../src/transport/retryAfter.js'

const NOW = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['2', 2_000],
    ['120', 120_000],
    [' 3 ', 3_000],
    ['1.5', 1_500],
    ['0.25', 250],
    ['0.0001', 1],
  ])('reads delay-seconds %j as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms)
  })

  it('returns a huge value as it is (capping is the caller’s policy)', () => {
    expect(parseRetryAfter('99999999999', NOW)).toBe(99_999_999_999_000)
  })

  it('reads a future HTTP date as the milliseconds until then', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', NOW)).toBe(30_000)
    expect(parseRetryAfter('Thu, 22 Oct 2015 07:28:00 GMT', NOW)).toBe(86_400_000)
  })

  it('reads a past HTTP date as 0', () => {
    expect(parseRetryAfter('Tue, 20 Oct 2015 07:28:00 GMT', NOW)).toBe(0)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', NOW)).toBe(0)
  })

  it('measures a date from Date.now() by default', () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString()
    const ms = parseRetryAfter(inAMinute)!
    expect(ms).toBeGreaterThan(58_000)
    expect(ms).toBeLessThanOrEqual(60_000)
  })

  it('reads the obsolete RFC 850 date form', () => {
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:28:10 GMT', NOW)).toBe(10_000)
  })

  it('reads an HTTP date with a numeric zone offset in that zone', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 08:28:10 +0100', NOW)).toBe(10_000)
    expect(parseRetryAfter('Wed, 21 Oct 2015 02:28:10 -0500', NOW)).toBe(10_000)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 UTC', NOW)).toBe(10_000)
  })

  describe('with a local time zone other than UTC', () => {
    const tz = process.env.TZ
    afterEach(() => {
      if (tz === undefined) delete process.env.TZ
      else process.env.TZ = tz
    })

    it('reads the obsolete asctime date form as GMT, as RFC 9110 defines it', () => {
      process.env.TZ = 'America/New_York'
      expect(parseRetryAfter('Wed Oct 21 07:28:10 2015', NOW)).toBe(10_000)
    })

    it('reads an IMF-fixdate the same whatever the time zone', () => {
      process.env.TZ = 'Asia/Tokyo'
      expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', NOW)).toBe(10_000)
    })
  })

  it.each([[undefined], [''], ['   '], ['soon'], ['-1'], ['-0.5'], ['1e3'], ['.5'], ['1.'], ['5 s'], ['0x10'], ['2015-10-21'], ['2015-10-21T07:28:10Z'], ['12:00'], ['Wed, 99 Foo 2015 GMT'], ['Infinity'], ['NaN']])(
    'returns undefined for garbage or empty %j',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined()
    },
  )
})
