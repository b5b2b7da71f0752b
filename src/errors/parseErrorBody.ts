/** What an error reply says, read from whichever shape the gateway used. */
export interface ErrorBodyInfo {
  readonly code?: string | number
  readonly message?: string
}

const MAX_MESSAGE = 500

/**
 * Reads the code and message of a rejected request's body. The body shape is
 * not documented, so every shape seen in the wild is tried in the order
 * clients read them: `detail`, `error` (string), `message`, `error.message`,
 * then `task_info.error.detail`/`title`. Text that is not JSON becomes the
 * message as it is (shortened); an empty body gives neither field.
 */
export function parseErrorBody(text: string): ErrorBodyInfo {
  const trimmed = text.trim()
  if (!trimmed) return {}
  let json: unknown
  try {
    json = JSON.parse(trimmed)
  } catch {
    return { message: shorten(trimmed) }
  }
  if (!isRecord(json)) return typeof json === 'string' ? { message: shorten(json) } : {}
  const error = isRecord(json.error) ? json.error : undefined
  const taskError = isRecord(json.task_info) && isRecord(json.task_info.error) ? json.task_info.error : undefined
  const message =
    text_(json.detail) ??
    text_(json.error) ??
    text_(json.message) ??
    text_(error?.message) ??
    text_(taskError?.detail) ??
    text_(taskError?.title)
  const code = code_(error?.code) ?? code_(json.code) ?? code_(taskError?.code) ?? code_(error?.type)
  return {
    ...(code === undefined ? {} : { code }),
    ...(message === undefined ? {} : { message: shorten(message) }),
  }
}

function text_(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined
  // FastAPI-style validation details arrive as a list of objects.
  if (Array.isArray(value) && value.length > 0) return JSON.stringify(value)
  return undefined
}

function code_(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function shorten(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text
}
