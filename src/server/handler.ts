import { callHook } from '../callHook.js'
import { isInvalidRequestError } from '../errors/InvalidRequestError.js'
import { redactError, WHOLE_KEY } from '../errors/redact.js'
import { readJsonBody } from './body.js'
import { forward } from './forward.js'
import { checkLoopbackCaller } from './loopback.js'
import { settingsOf, type GatewayHandlerOptions, type HandlerSettings } from './options.js'
import { errorReply, jsonReply, Refusal } from './reply.js'
import { routeTable, type Route } from './routes.js'
import { fetchCall, type CallGateway } from './upstream.js'

/**
 * A fetch-style handler: a standard `Request` in, a standard `Response` out.
 * Mount it anywhere that speaks them (Angular SSR's `server.ts`, Hono, Bun,
 * Deno, a Next.js route), or through {@link nodeListener} and
 * {@link expressMiddleware}.
 */
export interface GatewayHandler {
  (request: Request): Promise<Response>
  /** The path it answers under (`/api/rxgate` by default); adapters pass other paths on. */
  readonly basePath: string
}

/**
 * Creates the server half of a browser app: a handler that holds the
 * gateway key and forwards the browser client's calls (`createClient({
 * baseUrl: '/api/rxgate' })`) to the gateway.
 *
 * Only the interface's endpoints pass: response creation, retrieval (with
 * `?stream=true&starting_after=N`) and cancellation, text-to-video
 * creation, the task result paths, and the `taskEndpoints` given. Each call
 * goes through `authorize`, then its body is checked by the client's own
 * rules (and `models`), within `maxBodyBytes` and `bodyTimeoutMs`, before
 * anything is sent. Anything else gets a JSON 4xx in the gateway's error
 * shape. Streams pass through as they arrive, and a browser that leaves
 * aborts the gateway call. The key never appears in a reply: every reply is
 * masked of it. `Idempotency-Key` is passed on.
 *
 * It is closed by default: without `authorize` (or `allowUnauthenticated:
 * true`, which lets anyone who reaches the server spend the key) it does
 * not start. An open one answers only calls made to a loopback name
 * (`localhost`, `127.0.0.1`, `[::1]`) from a loopback page, so a site whose
 * name is made to resolve to 127.0.0.1 (DNS rebinding) gets a 403. Every
 * option is checked at once: bad ones throw one `InvalidRequestError`
 * listing them all.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createGatewayHandler, nodeListener } from 'rxgate/server'
 * import { sessions } from './sessions.js' // the app's own session store
 *
 * const handler = createGatewayHandler({
 *   baseUrl: process.env.GATEWAY_BASE_URL!,
 *   apiKey: process.env.GATEWAY_API_KEY!,
 *   models: ['gpt-4.1-mini', 'vendor-b/t2v-spark'],
 *   // A session the store knows, not merely a cookie that looks like one: anyone can send `session=…`.
 *   authorize: async (request) => (await sessions.verify(request.headers.get('cookie'))) !== undefined,
 * })
 * createServer(nodeListener(handler)).listen(3000)
 * // The browser: createClient({ baseUrl: '/api/rxgate' })
 * ```
 */
export function createGatewayHandler(options: GatewayHandlerOptions): GatewayHandler {
  const settings = settingsOf(options)
  const routes = routeTable(settings)
  const viaFetch = fetchCall(settings.fetch)
  const respond = async (request: Request, call: CallGateway): Promise<Response> => {
    try {
      return await answer(settings, routes, request, call)
    } catch (error) {
      if (error instanceof Refusal) return errorReply(error.status, error.code, error.message, error.headers)
      if (isInvalidRequestError(error)) {
        const body = { error: { message: error.message, type: 'invalid_request_error', param: error.issues[0]?.path ?? null, code: 'invalid_request', issues: error.issues } }
        return jsonReply(400, JSON.stringify(redactError(body, settings.apiKey, WHOLE_KEY)))
      }
      if (request.signal.aborted) return errorReply(499, 'client_closed', 'The caller went away.')
      const clean = redactError(error, settings.apiKey)
      // The app's onError throwing, or rejecting, must not cost the caller its 500: reported as a hook's error is.
      callHook(() => settings.onError(clean, request), undefined)
      return errorReply(500, 'internal_error', 'The gateway handler failed; see the server log.')
    }
  }
  const handler = Object.assign((request: Request) => respond(request, viaFetch), { basePath: settings.basePath })
  // With a `fetch` of the app's own, every call goes through it; else the Node adapters may reach the gateway their faster way.
  if (!options.fetch) Object.defineProperty(handler, VIA, { value: respond })
  return handler
}

const VIA = Symbol('rxgate.answerVia')

/**
 * The handler's answer with the gateway reached through `call`, for the
 * Node adapters (undici's dispatcher: no web streams between the gateway's
 * socket and the browser's); the handler's own answer when it was given a
 * `fetch` (every call then goes through it) or is not one of
 * {@link createGatewayHandler}'s.
 *
 * @example
 * ```ts
 * const response = await answerVia(handler, request, undiciCall)
 * ```
 */
export function answerVia(handler: GatewayHandler, request: Request, call: CallGateway): Promise<Response> {
  const via = (handler as { [VIA]?: (request: Request, call: CallGateway) => Promise<Response> })[VIA]
  return via ? via(request, call) : handler(request)
}

async function answer(settings: HandlerSettings, routes: ReturnType<typeof routeTable>, request: Request, call: CallGateway): Promise<Response> {
  const url = new URL(request.url)
  // Open to every caller: only under this machine's own names, never one a remote page made resolve here.
  if (!settings.authorize) checkLoopbackCaller(request, url)
  const { basePath } = settings
  if (!url.pathname.startsWith(`${basePath}/`)) throw new Refusal(404, 'not_found', `The gateway is served under ${basePath}/.`)
  const route = routes(request.method, url.pathname.slice(basePath.length), url.searchParams)
  // No authorize only when the options said allowUnauthenticated: true.
  if (settings.authorize) {
    const verdict = await settings.authorize(request)
    if (verdict instanceof Response) return verdict
    if (verdict !== true) throw new Refusal(401, 'unauthorized', 'This call needs a signed-in session.')
  }
  let body: string | undefined
  if (route.body) {
    const json = await readJsonBody(request, settings.maxBodyBytes, settings.bodyTimeoutMs)
    body = route.body(json)
    checkModel(settings, route, json)
  } else {
    checkModel(settings, route, undefined)
  }
  return forward(settings, route, body, request, call)
}

function checkModel(settings: HandlerSettings, route: Route, json: unknown): void {
  if (!settings.models || route.model === undefined) return
  const model = typeof route.model === 'function' ? route.model(json) : route.model
  if (typeof model !== 'string' || !settings.models.has(model)) {
    throw new Refusal(403, 'model_not_allowed', `The model ${JSON.stringify(model)} is not allowed here.`)
  }
}
