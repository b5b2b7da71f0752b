import { describe, expect, it } from 'vitest'
import { byteWindows } from '../../src/audio/knownBytes.js'
import { sniffAudio } from '../../src/audio/sniffAudio.js'
import { chunk, concat, expectEverySplitAgrees, expectPiecesAgree, fmt, latin1, toneWav, u32le, wav, wholeAnswer } from './fixtures.js'

describe('WAV header: RIFF…WAVE, the fmt byte rate over the data size', () => {
  it('reads the length from fmt and data: 5 s of 16,000 bytes a second', () => {
    const file = toneWav(5)
    expect(wholeAnswer(file, file.length)).toEqual({ format: 'wav', seconds: 5 })
    expect(wholeAnswer(file.subarray(0, 200))).toEqual({ format: 'wav', seconds: 5 }) // the size is not needed
  })

  it('walks past LIST, fact and other chunks before data, odd sizes padded', () => {
    const file = wav([fmt({ channels: 2, sampleRate: 44_100 }), chunk('fact', u32le(1)), chunk('LIST', latin1('INFOodd')), chunk('bext', new Uint8Array(601))], 44_100 * 4 * 7)
    expect(wholeAnswer(file, file.length)).toEqual({ format: 'wav', seconds: 7 })
  })

  it('reads every length boundary exactly: 3 s and 30 s', () => {
    expect(wholeAnswer(toneWav(3))).toEqual({ format: 'wav', seconds: 3 })
    expect(wholeAnswer(toneWav(30))).toEqual({ format: 'wav', seconds: 30 })
  })

  it('a RIFF file that is not WAVE (an AVI, a WebP) is not a WAV', () => {
    const avi = concat(latin1('RIFF'), u32le(1000), latin1('AVI LIST'), new Uint8Array(32))
    expect(wholeAnswer(avi)).toEqual({ format: 'other', start: avi.subarray(0, 8) })
  })

  it('a data chunk of unknown size (0 or 0xFFFFFFFF, from streaming writers) counts the bytes the file holds, when its size is known', () => {
    for (const declared of [0, 0xffffffff]) {
      const file = wav([fmt()], 64_000, declared)
      expect(wholeAnswer(file, file.length)).toEqual({ format: 'wav', seconds: 4 })
      expect(wholeAnswer(file.subarray(0, 100))).toEqual({ format: 'wav' }) // no size: the length is unknown, not 0
    }
  })

  it('a file cut short plays what it holds', () => {
    const file = wav([fmt()], 48_000, 160_000)
    expect(wholeAnswer(file, file.length)).toEqual({ format: 'wav', seconds: 3 })
  })

  it('no fmt before data, or a zero byte rate: a WAV of unknown length', () => {
    expect(wholeAnswer(wav([], 16_000))).toEqual({ format: 'wav' })
    const zero = wav([chunk('fmt ', new Uint8Array(16))], 16_000)
    expect(wholeAnswer(zero)).toEqual({ format: 'wav' })
  })

  it('walks 64 chunk headers at most, looking for data', () => {
    const empty = (n: number) => Array.from({ length: n }, () => chunk('junk', new Uint8Array(0)))
    const sixtyFourth = wav([fmt(), ...empty(62)], 16_000 * 5) // data is the 64th chunk
    expect(wholeAnswer(sixtyFourth, sixtyFourth.length)).toStrictEqual({ format: 'wav', seconds: 5 })
    const sixtyFifth = wav([fmt(), ...empty(63)], 16_000 * 5)
    expect(wholeAnswer(sixtyFifth, sixtyFifth.length)).toStrictEqual({ format: 'wav' })
  })

  it('a WAV of unknown length says no length at all', () => {
    expect(wholeAnswer(wav([], 16_000))).toStrictEqual({ format: 'wav' })
  })

  it('asks for the next chunk header where it lies beyond the bytes known, and reads on from windows further in', () => {
    const file = wav([fmt(), chunk('LIST', new Uint8Array(10_001)), chunk('junk', new Uint8Array(5_000))], 80_000)
    const junkAt = 12 + 24 + 8 + 10_002
    const dataAt = junkAt + 8 + 5_000
    const known = byteWindows()
    known.add(0, file.subarray(0, 4096))
    expect(sniffAudio(known, file.length)).toEqual({ need: { offset: junkAt, length: 8 }, otherwise: { format: 'wav' } })
    known.add(junkAt, file.subarray(junkAt, junkAt + 512))
    expect(sniffAudio(known, file.length)).toEqual({ need: { offset: dataAt, length: 8 }, otherwise: { format: 'wav' } })
    known.add(dataAt, file.subarray(dataAt, dataAt + 512))
    expect(sniffAudio(known, file.length)).toEqual({ format: 'wav', seconds: 5 })
  })

  it('answers the same whatever the pieces: split in two at every byte of the header, and byte by byte', () => {
    const file = wav([chunk('LIST', latin1('INFOodd')), fmt(), chunk('fact', u32le(9))], 16_000 * 6)
    expectEverySplitAgrees(file, file.length)
    expectEverySplitAgrees(file, undefined)
  })

  it('says it needs more inside "RIFF", inside "WAVE", inside a chunk header and inside the byte rate', () => {
    const file = toneWav(5)
    // RIFF(4) size(4) WAVE(4) | LIST at 12: header(8), 17 bytes and a pad | fmt at 38: header(8), tag…rate(8), byte rate(4)… | data at 62
    const answers = expectPiecesAgree(file, [2, 10, 16, 30, 42, 50, 56, 58, 64, 69])
    expect(answers.slice(0, -1).map((a) => ('need' in a ? a.need : a))).toEqual([
      { offset: 0, length: 4 },
      { offset: 0, length: 12 },
      { offset: 12, length: 8 },
      { offset: 38, length: 8 },
      { offset: 38, length: 8 },
      { offset: 46, length: 12 },
      { offset: 46, length: 12 },
      { offset: 62, length: 8 },
      { offset: 62, length: 8 },
      { offset: 62, length: 8 },
    ])
  })
})
