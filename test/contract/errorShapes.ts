/**
 * Error replies of rejected requests as GATEWAY-NOTES.md describes real
 * traffic: the body is undocumented, so clients read, in order, `detail`
 * (string), `error` (string), `message` (string), `error.message`, then
 * `task_info.error.detail`/`title`; a 400 may carry `"code": null`; bodies may
 * be non-JSON or empty; OpenAI answers 429 `insufficient_quota` when the
 * account is out of credit, which no retry fixes. Statuses seen: 400, 401,
 * 402, 403, 404, 405, 409, 423, 429, 451, 5xx.
 *
 * Each row is what a loopback server answers and what the client must make
 * of it (`errors.test.ts`).
 */

export type Kind = 'auth' | 'forbidden' | 'payment' | 'not_found' | 'rate_limit' | 'timeout' | 'server' | 'rejected'

export interface ErrorShape {
  readonly title: string
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: string
  /** The message the client must read from the body; undefined when the body holds none. */
  readonly gatewayMessage: string | undefined
  /** The code the client must read; `'absent'` when the body gives none (never `null`). */
  readonly code: string | number | 'absent' | 'not null'
  readonly kind: Kind
  /** Sending the same request again cannot succeed. */
  readonly permanent: boolean
  readonly retryAfterMs?: number
}

const JSON_TYPE = { 'content-type': 'application/json' }

const OPENAI_QUOTA_MESSAGE =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.'

export const ERROR_SHAPES: readonly ErrorShape[] = [
  // Each field of the reading order, alone
  { title: '`detail` (string)', status: 404, headers: JSON_TYPE, body: '{"detail":"task not found"}', gatewayMessage: 'task not found', code: 'absent', kind: 'not_found', permanent: true },
  { title: '`error` (string)', status: 401, headers: JSON_TYPE, body: '{"error":"invalid api key"}', gatewayMessage: 'invalid api key', code: 'absent', kind: 'auth', permanent: true },
  { title: '`message` (string)', status: 403, headers: JSON_TYPE, body: '{"message":"model not enabled for this key"}', gatewayMessage: 'model not enabled for this key', code: 'absent', kind: 'forbidden', permanent: true },
  {
    title: '`error.message` (the OpenAI shape)',
    status: 400,
    headers: JSON_TYPE,
    body: '{"error":{"message":"Invalid value for temperature","type":"invalid_request_error","param":"temperature","code":"invalid_value"}}',
    gatewayMessage: 'Invalid value for temperature',
    code: 'invalid_value',
    kind: 'rejected',
    permanent: true,
  },
  {
    title: '`task_info.error.detail`',
    status: 400,
    headers: JSON_TYPE,
    body: '{"task_info":{"id":"0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11","status":"failed","error":{"code":4002,"title":"Gateway Error","detail":"The gateway refused the request"}}}',
    gatewayMessage: 'The gateway refused the request',
    code: 4002,
    kind: 'rejected',
    permanent: true,
  },
  {
    title: '`task_info.error.title` when there is no detail',
    status: 504,
    headers: JSON_TYPE,
    body: '{"task_info":{"error":{"code":4008,"title":"Gateway Timeout"}}}',
    gatewayMessage: 'Gateway Timeout',
    code: 4008,
    kind: 'server',
    permanent: false,
  },

  // The reading order: each field wins over every later one
  {
    title: '`detail` before `error`, `message`, `error.message` and `task_info`',
    status: 400,
    headers: JSON_TYPE,
    body: '{"task_info":{"error":{"code":3001,"title":"from title","detail":"from task_info"}},"message":"from message","error":"from error","detail":"from detail"}',
    gatewayMessage: 'from detail',
    code: 3001,
    kind: 'rejected',
    permanent: true,
  },
  { title: '`error` (string) before `message`', status: 400, headers: JSON_TYPE, body: '{"message":"from message","error":"from error"}', gatewayMessage: 'from error', code: 'absent', kind: 'rejected', permanent: true },
  {
    title: '`message` before `error.message`',
    status: 400,
    headers: JSON_TYPE,
    body: '{"error":{"message":"from error.message"},"message":"from message"}',
    gatewayMessage: 'from message',
    code: 'absent',
    kind: 'rejected',
    permanent: true,
  },
  {
    title: '`error.message` before `task_info.error`',
    status: 400,
    headers: JSON_TYPE,
    body: '{"task_info":{"error":{"code":3001,"title":"from title","detail":"from task_info"}},"error":{"message":"from error.message","code":"bad"}}',
    gatewayMessage: 'from error.message',
    code: 'bad',
    kind: 'rejected',
    permanent: true,
  },

  // A 400 whose code is null
  {
    title: 'a 400 with `"code": null`',
    status: 400,
    headers: JSON_TYPE,
    body: '{"error":{"message":"Unsupported parameter: foo","type":"invalid_request_error","param":"foo","code":null}}',
    gatewayMessage: 'Unsupported parameter: foo',
    code: 'not null',
    kind: 'rejected',
    permanent: true,
  },

  // Bodies that are not JSON, or empty
  {
    title: 'plain text (a proxy)',
    status: 502,
    headers: { 'content-type': 'text/plain' },
    body: 'upstream connect error or disconnect/reset before headers',
    gatewayMessage: 'upstream connect error or disconnect/reset before headers',
    code: 'absent',
    kind: 'server',
    permanent: false,
  },
  {
    title: 'an HTML page',
    status: 503,
    headers: { 'content-type': 'text/html' },
    body: '<html><body><h1>503 Service Unavailable</h1></body></html>',
    gatewayMessage: '<html><body><h1>503 Service Unavailable</h1></body></html>',
    code: 'absent',
    kind: 'server',
    permanent: false,
  },
  { title: 'JSON that is cut short', status: 500, headers: JSON_TYPE, body: '{"error":{"message":"bo', gatewayMessage: '{"error":{"message":"bo', code: 'absent', kind: 'server', permanent: false },
  { title: 'an empty 500', status: 500, body: '', gatewayMessage: undefined, code: 'absent', kind: 'server', permanent: false },
  { title: 'an empty 401', status: 401, body: '', gatewayMessage: undefined, code: 'absent', kind: 'auth', permanent: true },
  { title: 'an empty JSON object', status: 400, headers: JSON_TYPE, body: '{}', gatewayMessage: undefined, code: 'absent', kind: 'rejected', permanent: true },

  // 429: a rate limit, or an account out of credit
  {
    title: "OpenAI's 429 `insufficient_quota` (out of credit: no retry fixes it)",
    status: 429,
    headers: JSON_TYPE,
    body: JSON.stringify({ error: { message: OPENAI_QUOTA_MESSAGE, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }),
    gatewayMessage: OPENAI_QUOTA_MESSAGE,
    code: 'insufficient_quota',
    kind: 'rate_limit',
    permanent: true,
  },
  {
    title: 'a 429 rate limit with Retry-After in seconds',
    status: 429,
    headers: { ...JSON_TYPE, 'retry-after': '7' },
    body: '{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
    gatewayMessage: 'Rate limit reached for requests',
    code: 'rate_limit_exceeded',
    kind: 'rate_limit',
    permanent: false,
    retryAfterMs: 7000,
  },

  // The other statuses of GATEWAY-NOTES
  { title: '402 insufficient balance', status: 402, headers: JSON_TYPE, body: '{"detail":"Insufficient balance"}', gatewayMessage: 'Insufficient balance', code: 'absent', kind: 'payment', permanent: true },
  { title: '405', status: 405, headers: { ...JSON_TYPE, allow: 'GET' }, body: '{"detail":"Method Not Allowed"}', gatewayMessage: 'Method Not Allowed', code: 'absent', kind: 'rejected', permanent: true },
  { title: '409', status: 409, headers: JSON_TYPE, body: '{"detail":"Conflict"}', gatewayMessage: 'Conflict', code: 'absent', kind: 'rejected', permanent: true },
  { title: '423', status: 423, headers: JSON_TYPE, body: '{"detail":"Locked"}', gatewayMessage: 'Locked', code: 'absent', kind: 'rejected', permanent: true },
  { title: '451', status: 451, headers: JSON_TYPE, body: '{"detail":"Unavailable For Legal Reasons"}', gatewayMessage: 'Unavailable For Legal Reasons', code: 'absent', kind: 'rejected', permanent: true },
  { title: '500 with the OpenAI shape', status: 500, headers: JSON_TYPE, body: '{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}', gatewayMessage: 'The server had an error', code: 'not null', kind: 'server', permanent: false },
]
