/**
 * Removes the API key from an error before it reaches the caller: from its
 * message, stack and every field (payloads and bodies the gateway sent back
 * included), and from its `cause` chain. The gateway may echo a key anywhere
 * (an error body, a 200 payload that then fails validation, a failure
 * message), so this runs once, where errors leave the library, rather than
 * wherever one is made. The error is changed in place and returned. Keys
 * shorter than {@link MIN_SECRET_LENGTH} are left alone.
 */
export function redactError<E>(error: E, secret: string): E {
  if (secret.length >= MIN_SECRET_LENGTH) scrub(error, secret, new Set())
  return error
}

const MASK = '[redacted]'
/**
 * Shorter keys are placeholders of local gateways (`dev`, `k`): masking every
 * occurrence of those in rxgate's own words would garble every message.
 */
export const MIN_SECRET_LENGTH = 8

function scrub(value: unknown, secret: string, seen: Set<object>): unknown {
  if (typeof value === 'string') return value.includes(secret) ? value.split(secret).join(MASK) : value
  if (!value || typeof value !== 'object' || seen.has(value)) return value
  seen.add(value)
  // Own properties, the non-enumerable `message`, `stack` and `cause` of errors included.
  for (const key of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (!descriptor || !('value' in descriptor)) continue
    const clean = scrub(descriptor.value, secret, seen)
    if (clean !== descriptor.value) {
      if (descriptor.writable) (value as Record<string, unknown>)[key] = clean
      else if (descriptor.configurable) Object.defineProperty(value, key, { ...descriptor, value: clean })
    }
  }
  return value
}
