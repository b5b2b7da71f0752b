/**
 * An in-process gateway for tests in virtual time:
 * {@link createTestGateway} answers a client's calls by the simulator's rules
 * on the clock of an RxJS `TestScheduler` (or of fake timers), with nothing
 * sent over the network. It imports no Node module, so it runs in Node and
 * in a browser bundle alike (for Angular: `rxgate/angular/testing`).
 *
 * @example
 * ```ts
 * import { createTestGateway } from 'rxgate/testing'
 *
 * testScheduler.run(({ expectObservable }) => {
 *   const { client } = createTestGateway({ scheduler: testScheduler, respond: () => 'Hi there' })
 *   expectObservable(responses$(client, { model: 'gpt-4o', input: 'Hi' }).pipe(outputText())).toBe('(a|)', { a: 'Hi there' })
 * })
 * ```
 *
 * @module rxgate/testing
 */
export { createTestGateway, type TestGateway } from './createTestGateway.js'
export type { TaskScript, TestFault, TestGatewayOptions, TestRequest, TestScript } from './types.js'
