/** Keys shorter than this are placeholders of local gateways (`dev`, `k`): masking them would garble every message. */
export const MIN_SECRET_LENGTH = 8

const MASK = '[redacted]'
/** Longest message an error leaves with; longer gateway text is cut after the key is masked. */
const MAX_MESSAGE = 2_000

/**
 * Masks every stretch of `text` that shares 8 or more consecutive characters
 * with `secret`: the whole key, and fragments of it, such as a key the
 * gateway echoed half-masked (`sk-proj-12ab…`) or a key cut by someone's
 * truncation.
 *
 * @example
 * ```ts
 * scrubText('bad key sk-1234567890abcdef', 'sk-1234567890abcdef') // 'bad key [redacted]'
 * ```
 */
export function scrubText(text: string, secret: string): string {
  if (secret.length < MIN_SECRET_LENGTH || text.length < MIN_SECRET_LENGTH) return text
  const covered: Array<[number, number]> = []
  for (let i = 0; i + MIN_SECRET_LENGTH <= secret.length; i++) {
    const gram = secret.slice(i, i + MIN_SECRET_LENGTH)
    for (let at = text.indexOf(gram); at !== -1; at = text.indexOf(gram, at + 1)) covered.push([at, at + MIN_SECRET_LENGTH])
  }
  if (covered.length === 0) return text
  covered.sort((a, b) => a[0] - b[0])
  let out = ''
  let pos = 0
  for (let i = 0; i < covered.length; ) {
    const start = covered[i]![0]
    let end = covered[i]![1]
    for (i++; i < covered.length && covered[i]![0] <= end; i++) end = Math.max(end, covered[i]![1])
    out += text.slice(pos, start) + MASK
    pos = end
  }
  return out + text.slice(pos)
}

/**
 * Prepares an error to leave the library: masks the key (and any 8-character
 * fragment of it) in its message, stack and every field, payloads and
 * `cause` chain included, and only then shortens an overlong message, so a
 * cut can never leave part of the key behind. The gateway may echo a key
 * anywhere (an error body, a payload that failed validation, a failure
 * message), so this runs once, where errors leave, rather than wherever one
 * is made. The walk is iterative, so a deeply nested payload cannot overflow
 * the stack. The error is changed in place and returned.
 */
export function redactError<E>(error: E, secret: string | undefined): E {
  if (secret && secret.length >= MIN_SECRET_LENGTH) scrubAll(error, secret)
  if (error instanceof Error) shortenMessage(error)
  return error
}

function scrubAll(root: unknown, secret: string): void {
  const seen = new Set<object>()
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (!value || typeof value !== 'object' || seen.has(value)) continue
    seen.add(value)
    // Own properties, the non-enumerable `message`, `stack` and `cause` of errors included.
    for (const key of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)
      if (!descriptor || !('value' in descriptor)) continue
      const field: unknown = descriptor.value
      if (typeof field === 'string') {
        const clean = scrubText(field, secret)
        if (clean !== field) replace(value, key, descriptor, clean)
      } else if (field && typeof field === 'object') stack.push(field)
    }
  }
}

function replace(owner: object, key: string, descriptor: PropertyDescriptor, value: string): void {
  if (descriptor.writable) (owner as Record<string, unknown>)[key] = value
  else if (descriptor.configurable) Object.defineProperty(owner, key, { ...descriptor, value })
}

function shortenMessage(error: Error): void {
  const { message } = error
  if (message.length <= MAX_MESSAGE) return
  const short = `${message.slice(0, MAX_MESSAGE)}… (${message.length - MAX_MESSAGE} more characters)`
  Object.defineProperty(error, 'message', { value: short, writable: true, configurable: true, enumerable: false })
  if (typeof error.stack === 'string') error.stack = error.stack.replace(message, short)
}
