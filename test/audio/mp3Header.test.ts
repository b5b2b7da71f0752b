import { describe, expect, it } from 'vitest'
import { byteWindows, prefixOf } from '../../src/audio/knownBytes.js'
import { readFrameHeader } from '../../src/audio/mpegFrame.js'
import { sniffAudio } from '../../src/audio/sniffAudio.js'
import { concat, expectEverySplitAgrees, expectPiecesAgree, frame, HEADERS, id3, JPEG, vbri, wholeAnswer, xing } from './fixtures.js'

// MPEG-1 Layer III at 44.1 kHz: 1152 samples a frame. MPEG-2 Layer III: 576.
const mpeg1 = (frames: number) => (frames * 1152) / 44_100

describe('MPEG audio frame header', () => {
  it('reads version, layer, bitrate, sample rate, samples per frame and side information', () => {
    expect(readFrameHeader(Uint8Array.from(HEADERS.mpeg1Stereo))).toEqual({ version: 1, layer: 3, bitrate: 128_000, sampleRate: 44_100, samplesPerFrame: 1152, sideInfoBytes: 32 })
    expect(readFrameHeader(Uint8Array.from(HEADERS.mpeg1Mono))).toMatchObject({ sideInfoBytes: 17 })
    expect(readFrameHeader(Uint8Array.from(HEADERS.mpeg2Mono))).toEqual({ version: 2, layer: 3, bitrate: 64_000, sampleRate: 22_050, samplesPerFrame: 576, sideInfoBytes: 9 })
    expect(readFrameHeader(Uint8Array.from(HEADERS.layer2))).toEqual({ version: 1, layer: 2, bitrate: 192_000, sampleRate: 48_000, samplesPerFrame: 1152, sideInfoBytes: 0 })
    expect(readFrameHeader(Uint8Array.of(0xff, 0xe3, 0x80, 0xc4))).toMatchObject({ version: 2.5, sampleRate: 11_025 })
  })

  it('refuses reserved values and the bad bitrate: bytes that merely start with 0xFF are not audio', () => {
    expect(readFrameHeader(Uint8Array.of(0xff, 0xeb, 0x90, 0x44))).toBeUndefined() // reserved version
    expect(readFrameHeader(Uint8Array.of(0xff, 0xf9, 0x90, 0x44))).toBeUndefined() // reserved layer
    expect(readFrameHeader(Uint8Array.of(0xff, 0xfb, 0xf0, 0x44))).toBeUndefined() // bitrate index 15
    expect(readFrameHeader(Uint8Array.of(0xff, 0xfb, 0x9c, 0x44))).toBeUndefined() // reserved sample rate
    expect(readFrameHeader(JPEG)).toBeUndefined()
  })
})

describe('MP3 header: ID3v2 skipped by its size, then a frame; the length from Xing/Info, VBRI, or the bitrate', () => {
  it('counts the frames of a Xing or Info tag after the side information (stereo 32 bytes, mono 17, MPEG-2 mono 9)', () => {
    expect(wholeAnswer(frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: xing('Xing', 383) }))).toEqual({ format: 'mp3', seconds: mpeg1(383) })
    expect(wholeAnswer(frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 250) }))).toEqual({ format: 'mp3', seconds: mpeg1(250) })
    expect(wholeAnswer(frame(HEADERS.mpeg2Mono, 208, { at: 13, bytes: xing('Xing', 1000) }))).toEqual({ format: 'mp3', seconds: (1000 * 576) / 22_050 })
  })

  it('counts the frames of a VBRI tag, 32 bytes after the header', () => {
    expect(wholeAnswer(frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: vbri(100) }))).toEqual({ format: 'mp3', seconds: mpeg1(100) })
  })

  it('without a tag (or one without a frame count), estimates at constant bitrate from the size; without the size the length is unknown', () => {
    const cbr = frame(HEADERS.mpeg1Stereo, 417)
    expect(wholeAnswer(cbr, 160_000)).toEqual({ format: 'mp3', seconds: (160_000 * 8) / 128_000, estimated: true })
    expect(wholeAnswer(cbr)).toEqual({ format: 'mp3' })
    const bytesOnly = frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: xing('Xing', 383, 2) })
    expect(wholeAnswer(bytesOnly, 16_000)).toEqual({ format: 'mp3', seconds: 1, estimated: true })
    expect(wholeAnswer(frame(HEADERS.layer2, 576), 48_000)).toEqual({ format: 'mp3', seconds: 2, estimated: true })
    expect(wholeAnswer(frame(HEADERS.freeFormat, 417), 160_000)).toEqual({ format: 'mp3' }) // free format: no bitrate to go by
  })

  it('skips an ID3v2 tag by its declared size (a footer adds 10 bytes), and the estimate leaves the tag out', () => {
    const info = frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 200) })
    expect(wholeAnswer(concat(id3(300), info))).toEqual({ format: 'mp3', seconds: mpeg1(200) })
    expect(wholeAnswer(concat(id3(300, { major: 3, footer: true }), info))).toEqual({ format: 'mp3', seconds: mpeg1(200) })
    expect(wholeAnswer(concat(id3(990), frame(HEADERS.mpeg1Stereo, 417)), 1000 + 16_000)).toEqual({ format: 'mp3', seconds: 1, estimated: true })
  })

  it('an ID3v2 tag followed by no frame header, or a broken tag header, is not an MP3', () => {
    expect(wholeAnswer(concat(id3(64), new Uint8Array(200)))).toMatchObject({ format: 'other' })
    expect(wholeAnswer(concat(id3(64), JPEG))).toMatchObject({ format: 'other' })
    const broken = id3(64)
    broken[6] = 0x80 // a size byte that is not syncsafe
    expect(wholeAnswer(concat(broken, frame(HEADERS.mpeg1Stereo, 417)))).toMatchObject({ format: 'other' })
    expect(wholeAnswer(id3(64), 74)).toMatchObject({ format: 'other' }) // the file ends with the tag
  })

  it('accepts ID3v2.2 to ID3v2.4 only, and no revision 0xFF', () => {
    const after = frame(HEADERS.mpeg1Stereo, 417)
    for (const major of [2, 3, 4]) expect(wholeAnswer(concat(id3(64, { major }), after)), `ID3v2.${major}`).toEqual({ format: 'mp3' })
    for (const major of [1, 5, 0xff]) expect(wholeAnswer(concat(id3(64, { major }), after)), `ID3v2.${major}`).toMatchObject({ format: 'other' })
    const revision = id3(64)
    revision[4] = 0xff
    expect(wholeAnswer(concat(revision, after))).toMatchObject({ format: 'other' })
  })

  it('a size byte of 0x7F is still syncsafe', () => {
    const tag = id3(127)
    expect([...tag.subarray(6, 10)]).toEqual([0, 0, 0, 0x7f])
    expect(wholeAnswer(concat(tag, frame(HEADERS.mpeg1Stereo, 417)))).toEqual({ format: 'mp3' })
  })

  it('a tag followed by just a frame header, ending the file, is an MP3', () => {
    const file = concat(id3(64), Uint8Array.from(HEADERS.mpeg1Stereo))
    expect(wholeAnswer(file, file.length)).toEqual({ format: 'mp3', seconds: (4 * 8) / 128_000, estimated: true })
  })

  it('reads a Xing tag in Layer III frames only, and only where it says Xing or Info', () => {
    // A Layer II frame with what looks like a Xing tag right after its header: the bitrate decides.
    expect(wholeAnswer(frame(HEADERS.layer2, 576, { at: 4, bytes: xing('Xing', 500) }), 48_000)).toEqual({ format: 'mp3', seconds: 2, estimated: true })
    // A Layer III frame whose side information is followed by audio data, not a tag.
    const audio = frame(HEADERS.mpeg1Stereo, 417)
    audio.fill(0x55, 4)
    expect(wholeAnswer(audio, 16_000)).toEqual({ format: 'mp3', seconds: 1, estimated: true })
  })

  it('a frame header at byte 0 that is not valid is not an MP3', () => {
    expect(wholeAnswer(frame([0xff, 0xeb, 0x90, 0x44], 417))).toEqual({ format: 'other', start: Uint8Array.of(0xff, 0xeb, 0x90, 0x44, 0, 0, 0, 0) })
  })

  it('a tag longer than the bytes known: asks for the frame where the tag ends; without it, not an MP3 (no frame header was seen)', () => {
    const file = concat(id3(60_000), frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 300) }))
    const head = file.subarray(0, 4096)
    expect(sniffAudio(prefixOf(head))).toEqual({ need: { offset: 60_010, length: 4 }, otherwise: { format: 'other', start: head.subarray(0, 8) } })
    const known = byteWindows()
    known.add(0, head)
    known.add(60_010, file.subarray(60_010, 60_010 + 512))
    expect(sniffAudio(known, file.length)).toEqual({ format: 'mp3', seconds: mpeg1(300) })
  })

  it('once the frame header is known, asks for the 54 bytes that hold either tag; without them, the estimate', () => {
    const file = frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: xing('Xing', 383) })
    expect(sniffAudio(prefixOf(file.subarray(0, 30)), 32_000)).toEqual({ need: { offset: 0, length: 54 }, otherwise: { format: 'mp3', seconds: 2, estimated: true } })
  })

  it.each([
    ['an Info frame', frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 250) }), 250 * 417],
    ['a VBRI frame', frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: vbri(100) }), 100 * 417],
    ['a constant-bitrate frame', frame(HEADERS.mpeg2Mono, 208), 52_000],
    ['an ID3v2 tag, then an Xing frame', concat(id3(37), frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: xing('Xing', 383) })), 383 * 417],
    ['a JPEG', JPEG, JPEG.length],
  ])('answers the same for %s whatever the pieces: split in two at every byte, and byte by byte', (_, file, size) => {
    expectEverySplitAgrees(file, size)
    expectEverySplitAgrees(file, undefined)
  })

  it('says it needs more inside "ID3", inside the tag size, inside the frame header and before the Xing count', () => {
    const file = concat(id3(37), frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: xing('Xing', 383) }))
    // ID3 header 0..10, tag body to 47: the frame header at 47..51, the Xing tag at 47+36, its count at 47+44..47+48
    const answers = expectPiecesAgree(file, [2, 8, 30, 49, 90, 94])
    expect(answers.map((a) => ('need' in a ? a.need : a))).toEqual([
      { offset: 0, length: 4 },
      { offset: 0, length: 10 },
      { offset: 47, length: 4 },
      { offset: 47, length: 4 },
      { offset: 47, length: 54 },
      { offset: 47, length: 54 },
      { format: 'mp3', seconds: mpeg1(383) },
    ])
  })
})
