import { catchError, concatMap, connect, from, map, merge, mergeMap, of, type Observable } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isHttpError, outputText, responses$, textDeltas, textToVideo$, toolCalls, type Client } from '../../src/index.js'
import { createTestGateway } from '../../src/testing/index.js'

// The examples of the testing guide (docs/testing.md), run on the sources:
// a bot as a marble test, a pipeline under a 429 storm, fake timers.
const virtual = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))

/** A video bot: streams what the model writes, and renders the video the model asks for with make_video. */
function bot$(client: Client, request: string): Observable<string> {
  const makeVideo = { type: 'function' as const, name: 'make_video', description: 'Renders a short video of a subject.', parameters: { type: 'object', properties: { subject: { type: 'string' } }, required: ['subject'] } }
  return responses$(client, { model: 'gpt-4.1-mini', input: request, tools: [makeVideo], tool_choice: 'required', stream: true }).pipe(
    connect((events$) =>
      merge(
        events$.pipe(textDeltas()),
        events$.pipe(
          toolCalls(),
          concatMap((call) => textToVideo$(client, { prompt: (call.arguments as { subject: string }).subject })),
          map((event) => `video ${event.type}`),
        ),
      ),
    ),
  )
}

/** A pipeline: a caption for each photo, three at a time. */
const captions$ = (client: Client, photos: string[]) =>
  from(photos).pipe(mergeMap((photo) => responses$(client, { model: 'gpt-4.1-mini', input: `Caption ${photo}` }).pipe(outputText(), map((text) => `${photo}: ${text}`)), 3))
const respond = (body: Readonly<Record<string, unknown>>) => `A caption for ${String(body.input).slice('Caption '.length)}`

afterEach(() => {
  vi.useRealTimers()
})

describe('the testing guide’s examples', () => {
  it('a bot: its words as they stream, then the video it asked for, created and completed', () => {
    const testScheduler = virtual()
    const gateway = createTestGateway({ scheduler: testScheduler })
    testScheduler.run(({ expectObservable }) => {
      // '[preamble]' (a simulator marker) makes the model say a sentence before its call: one word every 5 ms from 20 ms.
      const words = { a: 'One', b: ' moment', c: ' —', d: ' I', e: ' will', f: ' use', g: ' make_video', h: ' to', i: ' find', j: ' out.' }
      expectObservable(bot$(gateway.client, '[preamble] A lighthouse at dusk')).toBe('20ms a 4ms b 4ms c 4ms d 4ms e 4ms f 4ms g 4ms h 4ms i 4ms j 54ms v 9999ms (w|)', {
        ...words,
        v: 'video created',
        w: 'video completed',
      })
    })
    // The model wrote the subject from the request; the bot made it the video's prompt.
    expect(gateway.requests[1]).toMatchObject({ method: 'POST', path: '/vendors/vendor-b/v1/t2v-spark/generation', at: 120, body: { prompt: 'A lighthouse at dusk' } })
  })

  it('a pipeline under a 429 storm: each refused creation is sent again after its Retry-After, with the same key', () => {
    const testScheduler = virtual()
    const gateway = createTestGateway({ scheduler: testScheduler, respond, faults: [{ route: 'create', status: 429, retryAfter: '2', times: 4 }] })
    testScheduler.run(({ expectObservable }) => {
      expectObservable(captions$(gateway.client, ['kite.jpg', 'pier.jpg', 'sea.jpg'])).toBe('2000ms (ab) 1996ms (c|)', {
        a: 'pier.jpg: A caption for pier.jpg',
        b: 'sea.jpg: A caption for sea.jpg',
        c: 'kite.jpg: A caption for kite.jpg',
      })
    })
    expect(gateway.requests.map((r) => `${r.at} ${r.status} ${(r.body as { input: string }).input}`)).toEqual([
      '0 429 Caption kite.jpg',
      '0 429 Caption pier.jpg',
      '0 429 Caption sea.jpg',
      '2000 429 Caption kite.jpg',
      '2000 200 Caption pier.jpg',
      '2000 200 Caption sea.jpg',
      '4000 200 Caption kite.jpg',
    ])
    const kite = gateway.requests.filter((r) => (r.body as { input: string }).input === 'Caption kite.jpg').map((r) => r.headers['idempotency-key'])
    expect(new Set(kite).size).toBe(1)
  })

  it('a storm longer than the retries: the 429’s HttpError after retry.count retries, at the times Retry-After sets', () => {
    for (const [count, requests, at] of [[2, 3, 4000], [5, 6, 10_000]] as const) {
      const testScheduler = virtual()
      const gateway = createTestGateway({ scheduler: testScheduler, client: { retry: { count } }, faults: [{ route: 'create', status: 429, retryAfter: '2', times: 100 }] })
      testScheduler.run(({ expectObservable }) => {
        const outcome$ = captions$(gateway.client, ['kite.jpg']).pipe(catchError((e: unknown) => of(isHttpError(e) ? `${e.status} after ${gateway.requests.length} requests` : String(e))))
        expectObservable(outcome$).toBe(`${at}ms (a|)`, { a: `429 after ${requests} requests` })
      })
    }
  })

  it('on vitest fake timers, without a scheduler: the stream moves as the timers advance', () => {
    vi.useFakeTimers()
    const { client } = createTestGateway({ respond: () => 'Hello virtual world' })
    const seen: string[] = []
    responses$(client, { model: 'gpt-4.1-mini', input: 'Hi', stream: true }).pipe(outputText()).subscribe((text) => seen.push(text))
    vi.advanceTimersByTime(30)
    expect(seen).toEqual([]) // still streaming
    vi.advanceTimersByTime(100)
    expect(seen).toEqual(['Hello virtual world'])
  })

  it('on vitest fake timers: a 429 pauses the client’s budget, and a call made meanwhile waits for the pause to end', async () => {
    vi.useFakeTimers()
    const gateway = createTestGateway({
      respond: () => 'Hi',
      client: { adaptToRateLimits: true }, // the client's budget
      faults: [{ route: 'create', status: 429, retryAfter: '2' }],
    })
    const hi = () => responses$(gateway.client, { model: 'gpt-4.1-mini', input: 'Hi' }).pipe(outputText())
    const seen: string[] = []
    hi().subscribe((text) => seen.push(`first: ${text}`)) // 429: the client pauses for 2 s
    await vi.advanceTimersByTimeAsync(1_000)
    hi().subscribe((text) => seen.push(`second: ${text}`)) // waits for the pause to end
    await vi.advanceTimersByTimeAsync(900)
    expect(gateway.requests.map((r) => r.status)).toEqual([429])
    await vi.advanceTimersByTimeAsync(200)
    expect(seen.sort()).toEqual(['first: Hi', 'second: Hi'])
    expect(gateway.requests.map((r) => r.status)).toEqual([429, 200, 200])
  })
})
