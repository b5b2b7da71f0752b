import { describe, expect, it } from 'vitest'
import { AbortSwitch, toAbortSignal } from '../../src/transport/abort.js'

describe('AbortSwitch', () => {
  it('calls each listener once when aborted, and a listener added later at once', () => {
    const s = new AbortSwitch()
    const calls: string[] = []
    s.addEventListener('abort', () => calls.push('a'))
    s.addEventListener('abort', () => calls.push('b'))
    expect(s.aborted).toBe(false)
    s.abort()
    s.abort()
    expect(s.aborted).toBe(true)
    expect(calls).toEqual(['a', 'b'])
    s.addEventListener('abort', () => calls.push('late'))
    expect(calls).toEqual(['a', 'b', 'late'])
  })

  it('does not call a removed listener', () => {
    const s = new AbortSwitch()
    const calls: string[] = []
    const gone = () => calls.push('gone')
    s.addEventListener('abort', gone)
    s.addEventListener('abort', () => calls.push('kept'))
    s.removeEventListener('abort', gone)
    s.abort()
    expect(calls).toEqual(['kept'])
  })

  it('removes exactly the listener named, whichever was added first', () => {
    const s = new AbortSwitch()
    const calls: string[] = []
    const first = () => calls.push('first')
    const second = () => calls.push('second')
    const third = () => calls.push('third')
    s.addEventListener('abort', first)
    s.addEventListener('abort', second)
    s.addEventListener('abort', third)
    s.removeEventListener('abort', second)
    s.removeEventListener('abort', () => calls.push('never added'))
    s.abort()
    expect(calls).toEqual(['first', 'third'])
  })

  it('keeps the reason of the first abort', () => {
    const s = new AbortSwitch()
    expect(s.reason).toBeUndefined()
    s.abort('timed out')
    s.abort('left')
    expect(s).toMatchObject({ aborted: true, reason: 'timed out' })
  })
})

describe('toAbortSignal', () => {
  it('returns a real AbortSignal as it is', () => {
    const signal = new AbortController().signal
    expect(toAbortSignal(signal)).toBe(signal)
  })

  it('links an AbortSignal to a switch: aborting the switch aborts it', () => {
    const s = new AbortSwitch()
    const signal = toAbortSignal(s)
    expect(signal).toBeInstanceOf(AbortSignal)
    expect(signal.aborted).toBe(false)
    s.abort()
    expect(signal.aborted).toBe(true)
  })

  it('links any abort-signal-like event target, e.g. one from another realm', () => {
    const other = Object.assign(new EventTarget(), { aborted: false })
    const signal = toAbortSignal(other)
    expect(signal.aborted).toBe(false)
    other.dispatchEvent(new Event('abort'))
    expect(signal.aborted).toBe(true)
  })

  it('gives an aborted signal for a switch already aborted', () => {
    const s = new AbortSwitch()
    s.abort()
    expect(toAbortSignal(s).aborted).toBe(true)
  })
})
