import type { RequestIssue } from '../errors/InvalidRequestError.js'
import { DEFAULTS } from '../policy/defaults.js'
import { checkHeaders, millis } from '../validation/options.js'

/** Every option of `createGatewayHandler`: any other name is a typo that would otherwise keep a default without a word. */
const NAMES = new Set([
  'baseUrl', 'apiKey', 'basePath', 'authorize', 'allowUnauthenticated', 'models', 'taskEndpoints', 'maxBodyBytes', 'bodyTimeoutMs',
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
  const { baseUrl, apiKey, basePath = '/api/rxgate', responsesPath = DEFAULTS.responsesPath } = options
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(baseUrl)) add('baseUrl', 'must be an http:// or https:// URL')
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
    taskEndpoints.forEach((endpoint: { resultPath?: unknown } | null, i) => {
      if (!endpoint || typeof endpoint.resultPath !== 'string' || !endpoint.resultPath.startsWith('/')) add(`taskEndpoints.${i}`, 'must be a task endpoint (see taskEndpoint)')
    })
  }
  for (const name of ['maxBodyBytes', 'maxReplyBytes'] as const) {
    const value = options[name]
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) add(name, `must be a positive integer (got ${show(value)})`)
  }
  const late = options.bodyTimeoutMs === undefined ? undefined : millis(1)(options.bodyTimeoutMs)
  if (late) add('bodyTimeoutMs', late)
  if (typeof responsesPath !== 'string' || !/^(\/[\w.~-]+)+$/.test(responsesPath)) add('responsesPath', `must be a path such as ${DEFAULTS.responsesPath}`)
  if (!['undefined', 'boolean'].includes(typeof options.allowUnknownTextToVideoFields)) add('allowUnknownTextToVideoFields', 'must be true or false')
  checkHeaders(issues, 'headers', options.headers)
  if (options.fetch === undefined ? typeof globalThis.fetch !== 'function' : typeof options.fetch !== 'function') {
    add('fetch', options.fetch === undefined ? 'is required where no global fetch exists' : `must be a function (got ${show(options.fetch)})`)
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') add('onError', `must be a function (got ${show(options.onError)})`)
  return issues
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
