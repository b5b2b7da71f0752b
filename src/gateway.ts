import type { Observable } from 'rxjs'
import { createClient, type Client, type ClientOptions } from './client.js'
import type { TaskEndpoint } from './contract/endpoint.js'
import type { TaskEvent } from './operators/pollTask.js'
import {
  cancelResponse$,
  responses$,
  retrieveResponse$,
  type ResponseCallOptions,
  type ResponseOutput,
  type RetrieveOutput,
  type RetrieveResponseOptions,
} from './responses$.js'
import { createTask$, task$, textToVideo$, type CreateTaskOptions, type TaskOptions, type TextToVideoOptions } from './tasks$.js'
import { runTools$, type RunToolsOptions, type ToolLoopEvent } from './runTools$.js'
import type { ToolHandlers } from './toolAnswer$.js'
import type { ToolDefinition } from './tools/tool.js'
import type { Response } from './validation/response.js'
import type { ResponseRequest } from './validation/responseRequest.js'
import type { TextToVideoRequest } from './validation/textToVideoRequest.js'

/** Options of {@link createGateway}: those of `createClient`. */
export type GatewayOptions = ClientOptions

/**
 * A client for one gateway with every call as a method: the convenient
 * facade over the standalone functions (`responses$(client, …)` and the
 * rest), which it calls as they are. An app that bundles for the browser
 * and uses one or two calls is smaller with the functions, since the facade
 * holds them all. Every method returns a cold Observable.
 */
export interface Gateway {
  /** The plain-data client the methods use; pass it to the standalone functions too. */
  readonly client: Client
  /** See {@link responses$}. */
  responses$<S extends boolean | null | undefined = undefined>(body: ResponseRequest & { readonly stream?: S }, options?: ResponseCallOptions): Observable<ResponseOutput<S>>
  /** See {@link retrieveResponse$}. */
  retrieveResponse$<S extends boolean | undefined = undefined>(id: string, options?: RetrieveResponseOptions & { readonly stream?: S }): Observable<RetrieveOutput<S>>
  /** See {@link cancelResponse$}. */
  cancelResponse$(id: string): Observable<Response>
  /** See {@link textToVideo$}. */
  textToVideo$(body: TextToVideoRequest, options?: TextToVideoOptions): Observable<TaskEvent>
  /** See {@link createTask$}. */
  createTask$(endpoint: TaskEndpoint, body: object, options?: CreateTaskOptions): Observable<TaskEvent>
  /** See {@link task$}. */
  task$(endpoint: TaskEndpoint, taskId: string, options?: TaskOptions): Observable<TaskEvent>
  /** See {@link runTools$}. */
  runTools$(body: ResponseRequest, tools: ToolHandlers | readonly ToolDefinition[], options?: RunToolsOptions): Observable<ToolLoopEvent>
}

/**
 * Creates a {@link Gateway}: `createClient(options)` with every call bound to
 * it. Throws `InvalidRequestError` at once when an option is missing or malformed.
 *
 * @example
 * ```ts
 * import { createGateway, outputText } from 'rxgate'
 *
 * const gateway = createGateway({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * gateway.responses$({ model: 'gpt-4.1-mini', input: 'Write a haiku' }).pipe(outputText()).subscribe(console.log)
 * ```
 */
export function createGateway(options: GatewayOptions): Gateway {
  return gatewayOf(createClient(options))
}

/**
 * The {@link Gateway} facade over a client you already have (one made by
 * `createClient`, or the `client` of `createTestGateway` in a test): every
 * call bound to it, sharing its budget, hooks and usage.
 *
 * @example
 * ```ts
 * import { createClient, gatewayOf } from 'rxgate'
 *
 * const client = createClient({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * const gateway = gatewayOf(client)
 * ```
 */
export function gatewayOf(client: Client): Gateway {
  return {
    client,
    responses$: (body, opts) => responses$(client, body, opts),
    retrieveResponse$: (id, opts) => retrieveResponse$(client, id, opts),
    cancelResponse$: (id) => cancelResponse$(client, id),
    textToVideo$: (body, opts) => textToVideo$(client, body, opts),
    createTask$: (endpoint, body, opts) => createTask$(client, endpoint, body, opts),
    task$: (endpoint, taskId, opts) => task$(client, endpoint, taskId, opts),
    runTools$: (body, tools, opts) => runTools$(client, body, tools, opts),
  }
}
