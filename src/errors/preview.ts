const MAX_DEPTH = 6
const MAX_ENTRIES = 40
const MAX_CHARS = 1_000

/**
 * A bounded, JSON-safe copy of any value, for logs: at most 6 levels deep,
 * 40 entries per object or array and 1,000 characters per string (the rest
 * is summarised). Never throws: circular references, BigInts, functions and
 * throwing getters become short descriptions.
 */
export function preview(value: unknown, depth = 0, seen = new Set<object>()): unknown {
  switch (typeof value) {
    case 'string':
      return value.length > MAX_CHARS ? `${value.slice(0, MAX_CHARS)}… (${value.length} characters)` : value
    case 'number':
    case 'boolean':
      return value
    case 'bigint':
      return `${value}n`
    case 'undefined':
      return undefined
    case 'function':
    case 'symbol':
      return `[${typeof value}]`
  }
  if (value === null) return null
  const object = value as object
  if (seen.has(object)) return '[Circular]'
  if (depth >= MAX_DEPTH) return Array.isArray(object) ? `[array of ${object.length}]` : '[object]'
  seen.add(object)
  try {
    if (object instanceof Error) return { name: object.name, message: preview(object.message, depth + 1, seen) }
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString()
    if (Array.isArray(object)) {
      const items = object.slice(0, MAX_ENTRIES).map((item) => preview(item, depth + 1, seen))
      if (object.length > MAX_ENTRIES) items.push(`… ${object.length - MAX_ENTRIES} more`)
      return items
    }
    const out: Record<string, unknown> = {}
    const keys = Object.keys(object)
    for (const key of keys.slice(0, MAX_ENTRIES)) out[key] = preview(read(object, key), depth + 1, seen)
    if (keys.length > MAX_ENTRIES) out['…'] = `${keys.length - MAX_ENTRIES} more keys`
    return out
  } catch {
    return '[unreadable]'
  } finally {
    seen.delete(object)
  }
}

function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key]
  } catch {
    return '[unreadable]'
  }
}
