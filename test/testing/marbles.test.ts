import { map } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { responses$, textToVideo$ } from '../../src/index.js'
import { createTestGateway } from '../../src/testing/index.js'

// The three marble tests a user writes first, each with the gateway's
// defaults (timeScale 'fast': 400 ms pending, 1,100 ms processing; stream
// events 5 ms apart). Fake timers are installed and must stay unused: all of
// it happens in the TestScheduler's virtual time, none on a real timer.
const virtual = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  expect(vi.getTimerCount(), 'a real timer was started').toBe(0)
  vi.useRealTimers()
})

describe('marble tests against the test gateway, with no real timer', () => {
  it('a text-to-video task: created, then completed at the first poll (10 s)', () => {
    const testScheduler = virtual()
    testScheduler.run(({ expectObservable }) => {
      const gw = createTestGateway({ scheduler: testScheduler })
      expectObservable(textToVideo$(gw.client, { prompt: 'A lighthouse' }).pipe(map((e) => e.type))).toBe('a 9999ms (b|)', { a: 'created', b: 'completed' })
    })
  })

  it('a streamed response: each event type on the stream clock', () => {
    const testScheduler = virtual()
    testScheduler.run(({ expectObservable }) => {
      const gw = createTestGateway({ scheduler: testScheduler, respond: () => 'Hi there' })
      const types = {
        a: 'response.created',
        b: 'response.in_progress',
        c: 'response.output_item.added',
        d: 'response.content_part.added',
        e: 'response.output_text.delta', // 'Hi', then ' there'
        f: 'response.output_text.done',
        g: 'response.content_part.done',
        h: 'response.output_item.done',
        i: 'response.completed',
      }
      expectObservable(responses$(gw.client, { model: 'gpt-4o', input: 'Hi', stream: true }).pipe(map((e) => e.type))).toBe('a 4ms b 4ms c 4ms d 4ms e 4ms e 4ms f 4ms g 4ms h 4ms (i|)', types)
    })
  })

  it('a failing task: created, then TaskFailedError with its code at the poll that finds it failed', () => {
    const testScheduler = virtual()
    testScheduler.run(({ expectObservable }) => {
      const gw = createTestGateway({ scheduler: testScheduler })
      expectObservable(textToVideo$(gw.client, { prompt: 'A lighthouse [fail:3001]' }).pipe(map((e) => e.type))).toBe('a 9999ms #', { a: 'created' }, expect.objectContaining({ name: 'TaskFailedError', code: 3001 }))
    })
  })
})
