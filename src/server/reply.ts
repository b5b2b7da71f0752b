/**
 * A call the handler will not forward: thrown where the reason is found,
 * answered once, in the handler, as JSON.
 */
export class Refusal extends Error {
  override name = 'Refusal' as const
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }
}

/**
 * A JSON reply in the gateway's own error shape (`{ error: { message, type,
 * param, code } }`), so the browser client reads a refusal of the app's
 * server exactly as it reads one of the gateway: `HttpError` with its
 * `status`, `code` and message.
 */
export function errorReply(status: number, code: string, message: string, headers: Readonly<Record<string, string>> = {}): Response {
  const type = status >= 500 ? 'server_error' : status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : 'invalid_request_error'
  return jsonReply(status, JSON.stringify({ error: { message, type, param: null, code } }), headers)
}

/** A reply with a JSON body that no cache keeps (every reply of the handler is one caller's). */
export function jsonReply(status: number, body: string, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } })
}
