import { describe, expect, it } from 'vitest'
import { audioIssues } from '../../src/audio/audioRules.js'
import { concat, JPEG, latin1, PNG } from './fixtures.js'

const messages = (facts: Parameters<typeof audioIssues>[0]) => audioIssues(facts).map((i) => `${i.path}: ${i.message}`)
const MB = 1024 * 1024

describe('the custom-audio rules: WAV or MP3, at most 15 MB, 3 to 30 s', () => {
  it('a file within them, or whose size and length are unknown, breaks none', () => {
    expect(audioIssues({ format: 'wav', seconds: 3, bytes: 15 * MB })).toEqual([])
    expect(audioIssues({ format: 'mp3', seconds: 30 })).toEqual([])
    expect(audioIssues({ format: 'mp3' })).toEqual([])
  })

  it('names each rule broken, at audio_url, with what the file is', () => {
    expect(messages({ format: 'wav', seconds: 42 })).toEqual(['audio_url: audio is 42.0 s; the interface allows 3 to 30 s'])
    expect(messages({ format: 'wav', seconds: 2, bytes: 16 * MB })).toEqual([
      'audio_url: audio is 16.0 MB; the interface allows at most 15 MB',
      'audio_url: audio is 2.0 s; the interface allows 3 to 30 s',
    ])
    expect(messages({ format: 'mp3', seconds: 31.2, estimated: true })).toEqual(['audio_url: audio is 31.2 s (estimated from its bitrate); the interface allows 3 to 30 s'])
  })

  it('never rounds a length or size that breaks a rule onto its limit', () => {
    expect(messages({ format: 'wav', seconds: 30.04 })).toEqual(['audio_url: audio is 30.04 s; the interface allows 3 to 30 s'])
    expect(messages({ format: 'wav', seconds: 2.999 })).toEqual(['audio_url: audio is 2.999 s; the interface allows 3 to 30 s'])
    expect(messages({ format: 'wav', bytes: 15 * MB + 1 })).toEqual(['audio_url: audio is 15.000001 MB; the interface allows at most 15 MB'])
  })

  it('shows six decimals at most', () => {
    expect(messages({ format: 'wav', seconds: 30.0000001 })).toEqual(['audio_url: audio is 30.000000 s; the interface allows 3 to 30 s'])
  })

  it('says what a file that is not audio looks like', () => {
    expect(messages({ format: 'other', start: PNG.subarray(0, 8) })).toEqual([
      'audio_url: audio is not WAV or MP3 (it starts with bytes 89 50 4E 47: a PNG image); the interface allows WAV or MP3',
    ])
    expect(messages({ format: 'other', start: latin1('<html><') })[0]).toContain('an HTML or XML page')
    expect(messages({ format: 'other', start: latin1('\0\0\0\x20ftypM4A ') })[0]).toContain('an MP4/M4A file')
    expect(messages({ format: 'other', start: latin1('RIFF\0\0\0\0') })[0]).toContain('a RIFF file that is not WAVE')
    expect(messages({ format: 'other', start: Uint8Array.of(1, 2, 3, 4) })).toEqual(['audio_url: audio is not WAV or MP3 (it starts with bytes 01 02 03 04); the interface allows WAV or MP3'])
    expect(messages({ format: 'other', start: new Uint8Array(0), bytes: 0 })).toEqual(['audio_url: audio is an empty file; the interface allows WAV or MP3'])
  })
})

describe('the look-alikes a file that is not audio is named as, by its first bytes', () => {
  const message = (start: Uint8Array) => audioIssues({ format: 'other', start })[0]!.message
  const shown = (start: Uint8Array) => [...start.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ')
  // [what the message calls a file, its first 8 bytes]
  const LOOKALIKES: [string, Uint8Array][] = ([
    [PNG.subarray(0, 8), 'a PNG image'],
    [JPEG.subarray(0, 8), 'a JPEG image'],
    [latin1('GIF89a\x01\x00'), 'a GIF image'],
    [latin1('OggS\x00\x02\x00\x00'), 'an Ogg file'],
    [latin1('fLaC\x00\x00\x00\x22'), 'a FLAC file'],
    [latin1('\x00\x00\x00\x20ftyp'), 'an MP4/M4A file'],
    [latin1('RIFF\x24\x00\x00\x00'), 'a RIFF file that is not WAVE, such as AVI or WebP'],
    [latin1('<!DOCTYP'), 'an HTML or XML page'],
    [latin1('\xef\xbb\xbf<html'), 'an HTML or XML page'],
    [latin1('{"error"'), 'a JSON document'],
    [latin1('[{"id":1'), 'a JSON document'],
  ] as [Uint8Array, string][]).map(([start, like]) => [like, start])

  it.each(LOOKALIKES)('names %s by its bytes', (like, start) => {
    expect(message(start)).toBe(`audio is not WAV or MP3 (it starts with bytes ${shown(start)}: ${like}); the interface allows WAV or MP3`)
  })

  it.each(LOOKALIKES)('does not name %s when its bytes start one byte further in', (_, start) => {
    const later = concat(latin1('x'), start.subarray(0, 7))
    expect(message(later)).toBe(`audio is not WAV or MP3 (it starts with bytes ${shown(later)}); the interface allows WAV or MP3`)
  })
})

