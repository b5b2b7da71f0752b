import { describe, expect, it } from 'vitest'
import { isFrameSync, readFrameHeader } from '../../src/audio/mpegFrame.js'
import { HEADERS, JPEG } from './fixtures.js'

describe('isFrameSync: eleven 1 bits', () => {
  it('is true only for 0xFF followed by a byte whose top three bits are set', () => {
    expect(isFrameSync(Uint8Array.from(HEADERS.mpeg1Stereo))).toBe(true)
    expect(isFrameSync(Uint8Array.of(0xff, 0xe0))).toBe(true)
    expect(isFrameSync(JPEG)).toBe(false) // FF D8
    expect(isFrameSync(Uint8Array.of(0xff, 0xc0))).toBe(false)
    expect(isFrameSync(Uint8Array.of(0xfe, 0xfb))).toBe(false)
    expect(isFrameSync(Uint8Array.of(0x00, 0xff))).toBe(false)
    expect(isFrameSync(Uint8Array.of(0xff))).toBe(false)
    expect(isFrameSync(new Uint8Array(0))).toBe(false)
  })
})

describe('readFrameHeader: the four bytes of a frame header', () => {
  it('needs all four bytes, and the sync', () => {
    expect(readFrameHeader(Uint8Array.from(HEADERS.mpeg1Stereo).subarray(0, 3))).toBeUndefined()
    expect(readFrameHeader(Uint8Array.of(0xfe, 0xfb, 0x90, 0x44))).toBeUndefined()
    expect(readFrameHeader(Uint8Array.of(0x7f, 0xfb, 0x90, 0x44))).toBeUndefined()
  })

  it('Layer I frames hold 384 samples; Layer II 1152, in MPEG-2 as in MPEG-1', () => {
    expect(readFrameHeader(Uint8Array.of(0xff, 0xff, 0x90, 0x44))).toEqual({ version: 1, layer: 1, bitrate: 288_000, sampleRate: 44_100, samplesPerFrame: 384, sideInfoBytes: 0 })
    expect(readFrameHeader(Uint8Array.of(0xff, 0xf7, 0x90, 0xc4))).toEqual({ version: 2, layer: 1, bitrate: 144_000, sampleRate: 22_050, samplesPerFrame: 384, sideInfoBytes: 0 })
    expect(readFrameHeader(Uint8Array.of(0xff, 0xf5, 0x80, 0xc4))).toEqual({ version: 2, layer: 2, bitrate: 64_000, sampleRate: 22_050, samplesPerFrame: 1152, sideInfoBytes: 0 })
  })
})
