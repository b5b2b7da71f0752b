/** Thrown by a handler to answer with a JSON error; the server sends it. */
export class SimHttpError extends Error {
  override name = 'SimHttpError' as const
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`HTTP ${status}`)
  }
}

/** Optional parts of {@link apiError}: the error `type` (default by status), the `param` at fault, extra headers. */
export interface ApiErrorExtra {
  readonly type?: string
  readonly param?: string | null
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A rejection in the OpenAI error shape `{ error: { message, type, param, code } }`,
 * the shape OpenAI-compatible clients read first.
 *
 * @example
 * ```ts
 * throw apiError(404, "No response found with id 'resp_x'.", 'not_found')
 * ```
 */
export function apiError(status: number, message: string, code: string | null, extra: ApiErrorExtra = {}): SimHttpError {
  const { type = status >= 500 ? 'server_error' : 'invalid_request_error', param = null, headers } = extra
  return new SimHttpError(status, { error: { message, type, param, code } }, headers)
}

/** A 400 `invalid_request_error` naming the field at fault. */
export function invalid(param: string | null, message: string, code = 'invalid_value'): SimHttpError {
  return apiError(400, message, code, { param })
}
