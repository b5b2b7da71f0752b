import { describe, expect, it } from 'vitest'
import { parseContentRange } from '../../src/download/contentRange.js'

describe('parseContentRange', () => {
  // A range a download can trust: `bytes <start>-<end>/<size or *>`, end inclusive and inside the size.
  it.each([
    ['bytes 1400-2898/2899', { start: 1400, end: 2898, size: 2899 }],
    ['bytes 0-9/*', { start: 0, end: 9, size: undefined }],
    ['bytes 0-9/10', { start: 0, end: 9, size: 10 }],
    ['bytes 5-5/6', { start: 5, end: 5, size: 6 }],
    ['  bytes 0-9/10', { start: 0, end: 9, size: 10 }],
    ['bytes 0-9/10  ', { start: 0, end: 9, size: 10 }],
    ['bytes   0-9/10', { start: 0, end: 9, size: 10 }],
    ['Bytes 3-7/8', { start: 3, end: 7, size: 8 }],
    ['bytes 3-7/*  ', { start: 3, end: 7, size: undefined }],
  ])('reads %j', (header, range) => {
    expect(parseContentRange(header)).toEqual(range)
  })

  // Anything else is not trusted: another unit, text around it, a range backwards or past the size.
  it.each([
    [undefined],
    [''],
    ['garbage'],
    ['items 0-9/10'],
    ['xbytes 0-9/10'],
    ['bytes 0-9/10 x'],
    ['bytes 0-9/10x'],
    ['bytes0-9/10'],
    ['bytes */10'],
    ['bytes 0-9'],
    ['bytes 5-4/10'],
    ['bytes 0-10/10'],
    ['bytes 9-12/10'],
  ])('refuses %j', (header) => {
    expect(parseContentRange(header)).toBeUndefined()
  })
})
