import * as v from 'valibot'
import { isInvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { DEFAULTS } from '../policy/defaults.js'
import { issuesAt } from '../validation/check.js'
import { HeadersSchema, milliseconds } from '../validation/options.js'
import { checkTaskEndpoint } from '../validation/taskEndpoint.js'
import { clearTextKeyMessage, keyStaysLocal } from '../transport/loopbackName.js'

/** Every option of `createGatewayHandler`: any other name is a typo that would otherwise keep a default without a word. */
const NAMES = new Set([
  'baseUrl', 'apiKey', 'allowInsecureHttp', 'basePath', 'authorize', 'allowUnauthenticated', 'models', 'taskEndpoints', 'maxBodyBytes', 'bodyTimeoutMs',
  'maxReplyBytes', 'responsesPath', 'allowUnknownTextToVideoFields', 'headers', 'fetch', 'onError',
])


type Options = Readonly<Record<string, unknown>>
const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : typeof value === 'function' ? 'a function' : String(value))
const isRecord = (value: unknown): value is Options => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * What is wrong with the options of `createGatewayHandler`, every issue at
 * once (empty when nothing is). Who may call is never left to a default:
 * `authorize` or `allowUnauthenticated: true` is required, and not both.
 */
export function optionIssues(input: unknown): RequestIssue[] {
  const issues: RequestIssue[] = []
  const add = (path: string, message: string) => void issues.push({ path, message })
  const options: Options = isRecord(input) ? input : {}
  for (const name of Object.keys(options)) if (!NAMES.has(name)) add(name, `is not an option of createGatewayHandler (the options are ${[...NAMES].join(', ')})`)
  const { baseUrl, apiKey, allowInsecureHttp, basePath = '/api/rxgate', responsesPath = DEFAULTS.responsesPath } = options
  if (allowInsecureHttp !== undefined && typeof allowInsecureHttp !== 'boolean') add('allowInsecureHttp', `must be true or false (got ${show(allowInsecureHttp)})`)
  const badBase = baseUrlIssue(baseUrl, allowInsecureHttp === true)
  if (badBase) add('baseUrl', badBase)
  if (typeof apiKey !== 'string' || !apiKey.trim()) add('apiKey', 'is required (the gateway token, held on the server)')
  if (typeof basePath !== 'string' || !/^(\/[\w.~-]+)*$/.test(basePath)) add('basePath', `must be a path such as /api/rxgate (got ${JSON.stringify(basePath)})`)
  callerIssues(options, add)
  const { models, taskEndpoints = [] } = options
  if (models !== undefined) {
    if (!Array.isArray(models)) add('models', `must be an array of model names (got ${show(models)})`)
    else models.forEach((model: unknown, i) => typeof model === 'string' && model.trim() ? undefined : add(`models.${i}`, `must be a model name (got ${show(model)})`))
  }
  if (!Array.isArray(taskEndpoints)) add('taskEndpoints', 'must be an array of task endpoints (see taskEndpoint)')
  else {
    taskEndpoints.forEach((endpoint: unknown, i) => {
      // The same check as every task call's, so a path the client would refuse (`/x/../admin`, a query) cannot start a server either.
      try {
        checkTaskEndpoint(endpoint)
      } catch (error) {
        if (!isInvalidRequestError(error)) throw error
        for (const issue of error.issues) add(issue.path.replace(/^endpoint/, `taskEndpoints.${i}`), issue.message)
      }
    })
  }
  for (const name of ['maxBodyBytes', 'maxReplyBytes'] as const) {
    const value = options[name]
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) add(name, `must be a positive integer (got ${show(value)})`)
  }
  issues.push(...issuesAt('bodyTimeoutMs', v.optional(milliseconds(1)), options.bodyTimeoutMs))
  if (typeof responsesPath !== 'string' || !/^(\/[\w.~-]+)+$/.test(responsesPath)) add('responsesPath', `must be a path such as ${DEFAULTS.responsesPath}`)
  if (!['undefined', 'boolean'].includes(typeof options.allowUnknownTextToVideoFields)) add('allowUnknownTextToVideoFields', 'must be true or false')
  issues.push(...issuesAt('headers', v.optional(HeadersSchema), options.headers))
  if (isRecord(options.headers)) {
    for (const name of Object.keys(options.headers)) if (name.toLowerCase() === 'authorization') add(`headers.${name}`, 'cannot be an extra header: the handler sends Authorization from apiKey')
  }
  if (options.fetch === undefined ? typeof globalThis.fetch !== 'function' : typeof options.fetch !== 'function') {
    add('fetch', options.fetch === undefined ? 'is required where no global fetch exists' : `must be a function (got ${show(options.fetch)})`)
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') add('onError', `must be a function (got ${show(options.onError)})`)
  return issues
}

/**
 * An http(s) address that a request path can be appended to as text:
 * `https://gw.example?a=1` would send calls to `?a=1/vendors/…`, a fragment
 * would drop the path, and credentials in it would go to every call.
 */
function baseUrlIssue(baseUrl: unknown, allowInsecureHttp: boolean): string | undefined {
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) return 'must be an http:// or https:// URL'
  const url = new URL(baseUrl)
  if (url.search || baseUrl.includes('?')) return `must have no query: each path is appended to it (got ${JSON.stringify(baseUrl)})`
  if (url.hash || baseUrl.includes('#')) return `must have no fragment: each path is appended to it (got ${JSON.stringify(baseUrl)})`
  if (url.username || url.password) return 'must have no user name or password in it: the gateway token is apiKey'
  if (!allowInsecureHttp && !keyStaysLocal(url)) return clearTextKeyMessage(url.hostname)
  return undefined
}

/** `authorize`, or the explicit choice to let everyone in. */
function callerIssues({ authorize, allowUnauthenticated }: Options, add: (path: string, message: string) => void): void {
  if (allowUnauthenticated !== undefined && typeof allowUnauthenticated !== 'boolean') add('allowUnauthenticated', `must be true or false (got ${show(allowUnauthenticated)})`)
  if (authorize !== undefined && typeof authorize !== 'function') add('authorize', `must be a function (request) => boolean | Response (got ${show(authorize)})`)
  else if (authorize !== undefined && allowUnauthenticated === true) {
    add('allowUnauthenticated', 'cannot be combined with authorize: pass authorize to check each caller, or allowUnauthenticated: true alone to let every caller through')
  } else if (authorize === undefined && allowUnauthenticated !== true) {
    add('authorize', "is required: pass authorize(request), the app's check of who may spend the key (its session, a rate limit), or allowUnauthenticated: true to let anyone who reaches this server call the gateway with it")
  }
}
