/** What an error reply says, read from whichever shape the gateway used. */
export interface ErrorBodyInfo {
  readonly code?: string | number
  readonly type?: string
  readonly message?: string
}

/**
 * Reads the code and message of a rejected request's body. The body shape is
 * not documented, so every shape seen in the wild is tried in the order
 * clients read them: `detail`, `error` (string), `message`, `error.message`,
 * then `task_info.error.detail`/`title`. Text that is not JSON becomes the
 * message as it is; an empty body gives neither field. Never throws.
 */
export function parseErrorBody(text: string): ErrorBodyInfo {
  const trimmed = text.trim()
  if (!trimmed) return {}
  let json: unknown
  try {
    json = JSON.parse(trimmed)
  } catch {
    return { message: trimmed }
  }
  if (!isRecord(json)) return typeof json === 'string' ? { message: json } : {}
  const error = isRecord(json.error) ? json.error : undefined
  const taskError = isRecord(json.task_info) && isRecord(json.task_info.error) ? json.task_info.error : undefined
  const message =
    textOf(json.detail) ??
    textOf(json.error) ??
    textOf(json.message) ??
    textOf(error?.message) ??
    textOf(taskError?.detail) ??
    textOf(taskError?.title)
  const code = codeOf(error?.code) ?? codeOf(json.code) ?? codeOf(taskError?.code) ?? codeOf(error?.type)
  const type = typeof error?.type === 'string' ? error.type : typeof json.type === 'string' ? json.type : undefined
  return {
    ...(code === undefined ? {} : { code }),
    ...(type === undefined ? {} : { type }),
    ...(message === undefined ? {} : { message }),
  }
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined
  // FastAPI-style validation details arrive as a list of objects.
  if (Array.isArray(value) && value.length > 0) {
    try {
      return JSON.stringify(value)
    } catch {
      return undefined // nested too deep to print: the status still reports the error
    }
  }
  return undefined
}

function codeOf(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
