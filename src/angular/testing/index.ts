/**
 * The gateway for Angular component tests: {@link provideTestGateway} gives
 * `TestBed` an in-process gateway (`createTestGateway` from
 * `rxgate/testing`) under `GATEWAY` and `CLIENT`, on the test's scheduler or
 * its fake timers, with no network and no zone.js. Built for the browser:
 * it reaches no `node:` module, so Angular's test builder bundles it.
 *
 * @example
 * ```ts
 * import { provideTestGateway, injectTestGateway } from 'rxgate/angular/testing'
 *
 * TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection(), provideTestGateway({ scheduler })] })
 * const { requests } = TestBed.runInInjectionContext(injectTestGateway)
 * ```
 *
 * @module rxgate/angular/testing
 */
export { provideTestGateway, injectTestGateway, TEST_GATEWAY } from './provideTestGateway.js'
// The test gateway itself, so a spec imports everything from this one entry.
export { createTestGateway, type TestGateway } from '../../testing/createTestGateway.js'
export type { TaskScript, TestFault, TestGatewayOptions, TestRequest, TestScript } from '../../testing/types.js'
