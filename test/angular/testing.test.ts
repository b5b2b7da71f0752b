// @vitest-environment jsdom
import '@angular/compiler'
import { AsyncPipe } from '@angular/common'
import { Component, provideZonelessChangeDetection } from '@angular/core'
import { toSignal } from '@angular/core/rxjs-interop'
import { TestBed, type ComponentFixture } from '@angular/core/testing'
import { BrowserTestingModule, platformBrowserTesting } from '@angular/platform-browser/testing'
import { connect, last, map, merge, scan, switchMap, VirtualTimeScheduler, type Observable } from 'rxjs'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { injectClient } from '../../src/angular/injectClient.js'
import { GATEWAY, injectGateway } from '../../src/angular/provideGateway.js'
import { injectTestGateway, provideTestGateway } from '../../src/angular/testing/index.js'
import { responses$, textDeltas, textToVideo$, type ResponseStreamEvent, type TaskEvent } from '../../src/index.js'

// Components as users write them, without decorator syntax (the spec is not
// compiled by Angular's compiler): a streamed text, then a video task made
// from it. Each test drives time itself and reads the DOM at each step.

const PROMPT = { model: 'gpt-4.1-mini', input: 'Write a video prompt about a lighthouse', stream: true } as const

/** The page's view: the prompt as it streams ('writing'), then each status of the video made from it. */
const studio$ = (events$: Observable<ResponseStreamEvent>, video$: (prompt: string) => Observable<TaskEvent>) =>
  events$.pipe(
    textDeltas(),
    scan((text, delta) => text + delta, ''),
    connect((text$) =>
      merge(
        text$.pipe(map((text) => ({ text, status: 'writing' }))),
        text$.pipe(
          last(),
          switchMap((prompt) => video$(prompt).pipe(map((event) => ({ text: prompt, status: event.type })))),
        ),
      ),
    ),
  )

/** Streams a video prompt, then renders the video from it: the facade (`injectGateway()`) and the async pipe. */
const Studio = Component({
  selector: 'app-studio',
  imports: [AsyncPipe],
  template: '@if (view$ | async; as view) {<p class="text">{{ view.text }}</p><p class="status">{{ view.status }}</p>}',
})(
  class {
    readonly #gateway = injectGateway()
    readonly view$ = studio$(this.#gateway.responses$(PROMPT), (prompt) => this.#gateway.textToVideo$({ prompt }))
  },
)

/** The same page with the standalone functions (`injectClient()`) and signals. */
const SignalStudio = Component({
  selector: 'app-signal-studio',
  template: '<p class="text">{{ text() }}</p><p class="status">{{ status() }}</p>',
})(
  class {
    readonly #client = injectClient()
    readonly #run$ = studio$(responses$(this.#client, PROMPT), (prompt) => textToVideo$(this.#client, { prompt }))
    readonly #view = toSignal(this.#run$, { initialValue: { text: '', status: 'idle' } })
    readonly text = () => this.#view().text
    readonly status = () => this.#view().status
  },
)

/** The testing guide's component: a greeting as it streams. */
const Greeting = Component({ selector: 'app-greeting', imports: [AsyncPipe], template: '<p>{{ text$ | async }}</p>' })(
  class {
    readonly text$ = injectGateway()
      .responses$({ model: 'gpt-4.1-mini', input: 'Say hi', stream: true })
      .pipe(
        textDeltas(),
        scan((text, piece) => text + piece, ''),
      )
  },
)

const script = {
  respond: () => 'A lighthouse at dusk',
  task: () => ({ timing: { pendingMs: 15_000, processingMs: 20_000 } }),
}

function shown(fixture: ComponentFixture<unknown>): [text: string, status: string] {
  const element = fixture.nativeElement as HTMLElement
  return [element.querySelector('.text')?.textContent ?? '', element.querySelector('.status')?.textContent ?? '']
}

/** The requests as method and path, and whether any carried the key. */
function requestsOf(): { readonly calls: string[]; readonly withKey: boolean } {
  const { requests } = TestBed.runInInjectionContext(injectTestGateway)
  return { calls: requests.map((r) => `${r.method} ${r.path}`), withKey: JSON.stringify(requests).includes('test-key') || requests.some((r) => 'authorization' in r.headers) }
}

beforeAll(() => {
  TestBed.initTestEnvironment(BrowserTestingModule, platformBrowserTesting())
})

afterEach(() => {
  TestBed.resetTestingModule()
  vi.useRealTimers()
})

// The stream: events 5 ms apart, the four deltas at 20, 25, 30 and 35 ms, the
// end at 55 ms, where the task is created. Video polls 10 s, 15 s and 20 s
// later find it pending, processing (after 15 s) and completed (after 35 s).
const VIDEO = '/vendors/vendor-b/v1/t2v-spark/generation'

describe('provideTestGateway under zoneless change detection', () => {
  it('renders the streamed text, then each status of the video task, on a VirtualTimeScheduler the test flushes', async () => {
    const scheduler = new VirtualTimeScheduler()
    TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection(), provideTestGateway({ scheduler, ...script })] })
    const fixture = TestBed.createComponent(Studio)
    const at = async (ms: number) => {
      scheduler.maxFrames = ms
      scheduler.flush()
      await fixture.whenStable()
      return shown(fixture)
    }
    await fixture.whenStable()
    expect(shown(fixture)).toEqual(['', ''])
    expect(await at(25)).toEqual(['A lighthouse', 'writing'])
    expect(await at(35)).toEqual(['A lighthouse at dusk', 'writing'])
    expect(await at(55)).toEqual(['A lighthouse at dusk', 'created'])
    expect(await at(10_054)).toEqual(['A lighthouse at dusk', 'created'])
    expect(await at(10_055)).toEqual(['A lighthouse at dusk', 'pending'])
    expect(await at(25_055)).toEqual(['A lighthouse at dusk', 'processing'])
    expect(await at(45_055)).toEqual(['A lighthouse at dusk', 'completed'])
    const { calls, withKey } = requestsOf()
    expect(calls).toEqual(['POST /vendors/vendor-a/v1/responses', `POST ${VIDEO}`, ...Array(3).fill(expect.stringMatching(new RegExp(`^GET ${VIDEO}/[0-9a-f-]{36}$`)))])
    expect(withKey).toBe(false)
    expect(TestBed.runInInjectionContext(injectTestGateway).tasks.map((task) => task.reads)).toEqual([3])
  })

  it('runs on vitest fake timers with the default asyncScheduler, through injectClient()', async () => {
    vi.useFakeTimers()
    TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection(), provideTestGateway(script)] })
    const fixture = TestBed.createComponent(SignalStudio)
    const after = async (ms: number) => {
      vi.advanceTimersByTime(ms)
      await fixture.whenStable()
      return shown(fixture)
    }
    // Fake timers run a 0 ms timer set during a tick 1 ms later: these steps keep clear of the exact times.
    expect(await after(0)).toEqual(['', 'idle'])
    expect(await after(25)).toEqual(['A lighthouse', 'writing']) // 25 ms
    expect(await after(75)).toEqual(['A lighthouse at dusk', 'created']) // 100 ms
    expect(await after(9_900)).toEqual(['A lighthouse at dusk', 'created']) // 10 s
    expect(await after(100)).toEqual(['A lighthouse at dusk', 'pending']) // 10.1 s
    expect(await after(14_900)).toEqual(['A lighthouse at dusk', 'pending']) // 25 s
    expect(await after(100)).toEqual(['A lighthouse at dusk', 'processing']) // 25.1 s
    expect(await after(20_000)).toEqual(['A lighthouse at dusk', 'completed']) // 45.1 s
    const { calls, withKey } = requestsOf()
    expect(calls).toEqual(['POST /vendors/vendor-a/v1/responses', `POST ${VIDEO}`, ...Array(3).fill(expect.stringMatching(new RegExp(`^GET ${VIDEO}/[0-9a-f-]{36}$`)))])
    expect(withKey).toBe(false)
  })

  it('shows the guide’s greeting word by word (docs/testing.md)', async () => {
    const scheduler = new VirtualTimeScheduler()
    TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection(), provideTestGateway({ scheduler, respond: () => 'Hello there, friend' })] })
    const fixture = TestBed.createComponent(Greeting)
    const at = async (ms: number) => {
      scheduler.maxFrames = ms
      scheduler.flush()
      await fixture.whenStable()
      return (fixture.nativeElement as HTMLElement).textContent
    }
    expect(await at(19)).toBe('')
    expect(await at(20)).toBe('Hello')
    expect(await at(25)).toBe('Hello there,')
    expect(await at(100)).toBe('Hello there, friend')
    const { requests } = TestBed.runInInjectionContext(injectTestGateway)
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /vendors/vendor-a/v1/responses'])
    expect(requests[0]!.headers).not.toHaveProperty('authorization')
  })

  it('gives each TestBed set-up a gateway of its own, and says what to add when none is provided', () => {
    TestBed.configureTestingModule({ providers: [provideTestGateway()] })
    const first = TestBed.runInInjectionContext(injectTestGateway)
    expect(TestBed.runInInjectionContext(injectGateway).client).toBe(TestBed.runInInjectionContext(injectClient))
    // One client: its budget, hooks and usage are those of the test gateway's own.
    expect(TestBed.runInInjectionContext(injectClient)).toBe(first.client)
    TestBed.resetTestingModule()
    TestBed.configureTestingModule({ providers: [provideTestGateway()] })
    expect(TestBed.runInInjectionContext(injectTestGateway)).not.toBe(first)
    TestBed.resetTestingModule()
    TestBed.configureTestingModule({ providers: [provideTestGateway({ latencyMs: -1 })] })
    expect(() => TestBed.inject(GATEWAY)).toThrow(expect.objectContaining({ name: 'InvalidRequestError', message: expect.stringContaining('latencyMs: must be an integer of at least 0 (got -1)') }))
    TestBed.resetTestingModule()
    expect(() => TestBed.runInInjectionContext(injectTestGateway)).toThrow(/add provideTestGateway\(\{ scheduler \}\) to the test’s providers/)
  })
})
