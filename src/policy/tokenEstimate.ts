/** What a response creation is expected to use, in tokens, before it is sent. */
export interface TokenEstimate {
  /** Input tokens: the characters of `instructions` and of the text in `input`, divided by 4, rounded up. */
  readonly input: number
  /** Output tokens: `max_output_tokens`, or the guess when the body leaves it out. */
  readonly output: number
  /** Whether `output` is the body's own `max_output_tokens` (not a guess). */
  readonly outputGiven: boolean
}

/** Fields of an input item or content part that hold text the model reads: message contents, text parts, tool outputs and call arguments. */
const TEXT_FIELDS = ['content', 'text', 'output', 'arguments'] as const

/**
 * Estimates a response creation's tokens from its serialised body: about
 * four characters a token for the input (`instructions` and every text in
 * `input`; images and files are not counted, their cost is not in their
 * characters), plus `max_output_tokens`, or `outputGuess` without it. Cheap
 * and deliberately plain: the usage the gateway reports replaces it when
 * the response ends. A body that is not JSON counts its characters as input.
 *
 * @example
 * ```ts
 * estimateTokens(JSON.stringify({ model: 'm', input: 'Say hi', max_output_tokens: 50 }), 1_000)
 * // { input: 2, output: 50, outputGiven: true }
 * ```
 */
export function estimateTokens(body: string | undefined, outputGuess: number): TokenEstimate {
  let parsed: unknown
  try {
    parsed = body === undefined ? {} : JSON.parse(body)
  } catch {
    return { input: Math.ceil((body?.length ?? 0) / 4), output: outputGuess, outputGiven: false }
  }
  const request = isObject(parsed) ? parsed : {}
  const chars = textLength(request['instructions']) + textLength(request['input'])
  const max = request['max_output_tokens']
  const outputGiven = typeof max === 'number' && Number.isFinite(max) && max >= 0
  return { input: Math.ceil(chars / 4), output: outputGiven ? Math.ceil(max) : outputGuess, outputGiven }
}

/** The characters of the text in an input: a string, a list of items, or an item whose text fields hold more. */
function textLength(value: unknown, depth = 0): number {
  // Depth-bounded: a body is the caller's data, and nesting this deep holds no more prompt.
  if (depth > 8) return 0
  if (typeof value === 'string') return value.length
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textLength(item, depth + 1), 0)
  if (!isObject(value)) return 0
  return TEXT_FIELDS.reduce((sum, field) => sum + textLength(value[field], depth + 1), 0)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
