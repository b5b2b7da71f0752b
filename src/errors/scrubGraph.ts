/** Puts a replacement where a value was found (a field, a map entry, a set member). */
type Put = (value: unknown) => void

/**
 * Applies `scrub` to every string reachable from `root` the way `util.inspect`
 * and `JSON.stringify` reach them: own properties (symbol-keyed and
 * non-enumerable ones, so an error's `cause`, `stack` and
 * `AggregateError.errors`, included), enumerable getters, the entries of a
 * Map, a Set, URLSearchParams and FormData (changed in place), and the
 * headers and URL of a `Headers`, `Request`, `Response` or `URL`. Those four
 * keep their state where nothing can rewrite it (a response's headers are
 * immutable), so one that holds the key is swapped, where it was found, for
 * a masked copy: a new `Headers` or `URL`, or for a Request or Response a
 * plain `{ method, url, headers }` or `{ status, statusText, url, headers }`
 * (its body is never read). The walk is iterative, so a deeply nested
 * payload cannot overflow the stack; a frozen object is left as it is.
 *
 * @example
 * ```ts
 * const cause = { headers: new Headers({ authorization: `Bearer ${key}` }) }
 * scrubGraph(cause, (text) => scrubText(text, key))
 * cause.headers.get('authorization') // 'Bearer [redacted]' (a new Headers; the old one is untouched)
 * ```
 */
export function scrubGraph(root: unknown, scrub: (text: string) => string): void {
  const seen = new Set<object>()
  const stack: [unknown, Put | undefined][] = [[root, undefined]]
  const visit = (value: unknown, put: Put | undefined): unknown => {
    if (typeof value === 'string') return scrub(value)
    if (value && typeof value === 'object') stack.push([value, put])
    return value
  }
  while (stack.length > 0) {
    const [value, put] = stack.pop()!
    // Bytes are shown as numbers, never as text: their indices are not worth a walk.
    if (!value || typeof value !== 'object' || seen.has(value) || ArrayBuffer.isView(value)) continue
    seen.add(value)
    const tag = Object.prototype.toString.call(value)
    if (Object.hasOwn(SWAPPED, tag)) {
      try {
        const copy = SWAPPED[tag]!(value, scrub)
        if (copy !== undefined && put) put(copy)
        continue
      } catch {
        // Only named like one (a custom Symbol.toStringTag): walked as any object.
      }
    }
    if (value instanceof Map) {
      for (const [key, item] of [...value]) {
        const cleanKey = visit(key, undefined)
        const cleanItem = visit(item, (v) => value.set(cleanKey, v))
        if (cleanKey !== key) value.delete(key)
        if (cleanKey !== key || cleanItem !== item) value.set(cleanKey, cleanItem)
      }
    } else if (value instanceof Set) {
      const members = [...value]
      const clean = members.map((m) => visit(m, (v) => rebuild(value, [...value].map((old) => (old === m ? v : old)))))
      if (clean.some((m, i) => m !== members[i])) rebuild(value, clean)
    } else if (tag === '[object URLSearchParams]' || tag === '[object FormData]') {
      rewriteEntries(value as URLSearchParams, scrub)
    }
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)
      if (!descriptor) continue
      // JSON.stringify (and an error's toJSON) reads enumerable getters: what one returns is shown too.
      if (!('value' in descriptor) && !(descriptor.enumerable && descriptor.get)) continue
      const field = 'value' in descriptor ? descriptor.value : read(value, key)
      const clean = visit(field, (v) => replace(value, key, descriptor, v))
      if (clean !== field) replace(value, key, descriptor, clean)
    }
  }
}

/** Masked copies of the objects whose state cannot be rewritten, or undefined when nothing in one needs masking. */
const SWAPPED: Record<string, (value: object, scrub: (text: string) => string) => unknown> = {
  '[object Headers]': (value, scrub) => maskedHeaders(value as Headers, scrub),
  '[object URL]': (value, scrub) => {
    const href = (value as URL).href
    const clean = scrub(href)
    if (clean === href) return undefined
    return URL.canParse(clean) ? new URL(clean) : clean
  },
  '[object Request]': (value, scrub) => {
    const { method, url, headers } = value as Request
    const clean = maskedHeaders(headers, scrub)
    return clean || scrub(url) !== url ? { method, url: scrub(url), headers: clean ?? headers } : undefined
  },
  '[object Response]': (value, scrub) => {
    const { status, statusText, url, headers } = value as Response
    const clean = maskedHeaders(headers, scrub)
    const text = scrub(`${url}\n${statusText}`)
    return clean || text !== `${url}\n${statusText}`
      ? { status, statusText: scrub(statusText), url: scrub(url), headers: clean ?? headers }
      : undefined
  },
}

/** A masked copy of `headers`, or undefined when none of its names or values holds the key. */
function maskedHeaders(headers: Headers, scrub: (text: string) => string): Headers | Record<string, string> | undefined {
  const original = [...headers]
  const entries = original.map(([name, value]) => [scrub(name), scrub(value)] as [string, string])
  if (entries.every(([name, value], i) => name === original[i]![0] && value === original[i]![1])) return undefined
  try {
    return new Headers(entries)
  } catch {
    // A masked name is not a valid header name: a plain record shows the same.
    return Object.fromEntries(entries)
  }
}

/** Masks the string entries of URLSearchParams or FormData in place, in their order. */
function rewriteEntries(list: URLSearchParams, scrub: (text: string) => string): void {
  const entries = [...list]
  const clean = entries.map(([name, value]) => [scrub(name), typeof value === 'string' ? scrub(value) : value] as const)
  if (clean.every(([name, value], i) => name === entries[i]![0] && value === entries[i]![1])) return
  for (const [name] of entries) list.delete(name)
  for (const [name, value] of clean) (list.append as (n: string, v: unknown) => void)(name, value)
}

function rebuild(set: Set<unknown>, members: unknown[]): void {
  set.clear()
  for (const m of members) set.add(m)
}

function read(owner: object, key: PropertyKey): unknown {
  try {
    return (owner as Record<PropertyKey, unknown>)[key]
  } catch {
    return undefined
  }
}

function replace(owner: object, key: PropertyKey, descriptor: PropertyDescriptor, value: unknown): void {
  try {
    if (descriptor.writable) (owner as Record<PropertyKey, unknown>)[key] = value
    else if (descriptor.configurable) Object.defineProperty(owner, key, { value, writable: descriptor.writable ?? true, enumerable: Boolean(descriptor.enumerable), configurable: true })
  } catch {
    // A sealed or frozen owner keeps what it has.
  }
}
