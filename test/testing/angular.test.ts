import { createEnvironmentInjector, Injector, PLATFORM_ID, runInInjectionContext, type EnvironmentInjector } from '@angular/core'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { injectGateway, provideGateway } from '../../src/angular/provideGateway.js'
import { scan } from 'rxjs'
import { textDeltas } from '../../src/index.js'
import { createTestGateway } from '../../src/testing/index.js'

describe('the test gateway behind Angular’s provideGateway', () => {
  it('gives an injected gateway whose streamed text builds up in virtual time', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
    testScheduler.run(({ expectObservable }) => {
      const gateway = createTestGateway({ scheduler: testScheduler, streamDelayMs: 10, respond: () => 'Hello there' })
      const root = createEnvironmentInjector([{ provide: PLATFORM_ID, useValue: 'browser' }], Injector.NULL as EnvironmentInjector)
      const injector = createEnvironmentInjector([provideGateway(gateway.options)], root)
      const text$ = runInInjectionContext(injector, () => injectGateway().responses$({ model: 'gpt-4o', input: 'Greet me', stream: true }).pipe(textDeltas(), scan((text, delta) => text + delta, '')))
      // Deltas at 40 and 50 ms (events 10 ms apart); the stream completes at 90 ms.
      expectObservable(text$).toBe('40ms a 9ms b 39ms |', { a: 'Hello', b: 'Hello there' })
    })
  })
})
