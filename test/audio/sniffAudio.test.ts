import { describe, expect, it } from 'vitest'
import { byteWindows, prefixOf } from '../../src/audio/knownBytes.js'
import { sniffAudio } from '../../src/audio/sniffAudio.js'
import { concat, expectEverySplitAgrees, frame, HEADERS, id3, JPEG, latin1, PNG, toneWav, wholeAnswer } from './fixtures.js'

describe('sniffAudio: the format from the first bytes, never the name', () => {
  it('tells WAV, MP3 (with or without ID3v2) and anything else apart', () => {
    expect(wholeAnswer(toneWav(4))).toMatchObject({ format: 'wav' })
    expect(wholeAnswer(frame(HEADERS.mpeg1Stereo, 417))).toMatchObject({ format: 'mp3' })
    expect(wholeAnswer(concat(id3(20), frame(HEADERS.mpeg1Stereo, 417)))).toMatchObject({ format: 'mp3' })
    expect(wholeAnswer(PNG)).toEqual({ format: 'other', start: PNG.subarray(0, 8) })
    expect(wholeAnswer(JPEG)).toEqual({ format: 'other', start: JPEG.subarray(0, 8) })
    expect(wholeAnswer(latin1('<!DOCTYPE html><html>'))).toMatchObject({ format: 'other' })
  })

  it('a file of fewer than 4 bytes, or none, is not audio', () => {
    expect(wholeAnswer(new Uint8Array(0))).toEqual({ format: 'other', start: new Uint8Array(0) })
    expect(wholeAnswer(latin1('RI'))).toEqual({ format: 'other', start: latin1('RI') })
    expect(wholeAnswer(latin1('ID3'))).toEqual({ format: 'other', start: latin1('ID3') })
  })

  it('waits for 8 bytes before calling a file not audio, so the answer (which shows them) does not change', () => {
    expect(sniffAudio(prefixOf(PNG.subarray(0, 5)))).toEqual({ need: { offset: 0, length: 8 }, otherwise: { format: 'other', start: PNG.subarray(0, 5) } })
    expectEverySplitAgrees(PNG, undefined)
  })
})

describe('prefixOf: the bytes of a prefix', () => {
  it('serves any range within it, up to its last byte, and nothing past it', () => {
    const known = prefixOf(latin1('RIFF'))
    expect(known.get(0, 4)).toEqual(latin1('RIFF'))
    expect(known.get(2, 2)).toEqual(latin1('FF'))
    expect(known.get(1, 4)).toBeUndefined()
    expect(known.head(8)).toEqual(latin1('RIFF'))
  })
})

describe('byteWindows: the bytes known so far', () => {
  it('joins a chunk that continues a window, keeps a jump as a window of its own, and serves only whole ranges', () => {
    const known = byteWindows()
    known.add(0, latin1('RI'))
    known.add(2, latin1('FF'))
    known.add(100, latin1('data'))
    expect(known.get(0, 4)).toEqual(latin1('RIFF'))
    expect(known.get(0, 5)).toBeUndefined()
    expect(known.get(101, 3)).toEqual(latin1('ata'))
    expect(known.get(98, 4)).toBeUndefined()
    expect(known.head(8)).toEqual(latin1('RIFF'))
  })

  it('an empty chunk changes nothing: the chunk after it still joins its window', () => {
    const known = byteWindows()
    known.add(4, new Uint8Array(0))
    known.add(0, latin1('RIFF'))
    known.add(4, latin1('WAVE'))
    expect(known.get(0, 8)).toEqual(latin1('RIFFWAVE'))
  })

  it('serves exactly the bytes asked for from a window further in', () => {
    const known = byteWindows()
    known.add(100, latin1('data\x80\x3e\0\0'))
    expect(known.get(101, 3)).toEqual(latin1('ata'))
    expect(known.get(104, 4)).toEqual(Uint8Array.of(0x80, 0x3e, 0, 0))
  })

  it('has no head until byte 0 has arrived, whatever came first', () => {
    const known = byteWindows()
    known.add(100, latin1('data'))
    expect(known.head(8)).toEqual(new Uint8Array(0))
    known.add(0, latin1('RIFF'))
    expect(known.head(8)).toEqual(latin1('RIFF'))
  })

  it('keeps its own copy of each chunk: a reader that reuses its buffer cannot change what was read', () => {
    const known = byteWindows()
    const buffer = latin1('RIFF')
    known.add(0, buffer)
    buffer.fill(0)
    expect(known.get(0, 4)).toEqual(latin1('RIFF'))
  })
})
