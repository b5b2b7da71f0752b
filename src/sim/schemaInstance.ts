import { isObject } from './checkKit.js'

type Schema = Record<string, unknown>

/**
 * Writes a value that is a valid instance of a JSON schema, for structured
 * output and function-call arguments. Covers what typical schemas use:
 * `type` (one or a list, `null` skipped when another is allowed),
 * `nullable`, `const`, `enum`, `anyOf`/`oneOf` (first usable branch),
 * `allOf` (objects merged), local `$ref`s, object `properties` (all of them
 * written, as strict mode requires), arrays (`items`, `prefixItems`,
 * `minItems`/`maxItems`), strings (`minLength`/`maxLength`, common
 * `format`s), numbers and integers (`minimum`/`maximum`, exclusive bounds,
 * `multipleOf`). Strings are built from `text`, so the value follows the input.
 *
 * @example
 * ```ts
 * instanceOf({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } } }, 'Paris')
 * // { city: 'Paris', days: 1 }
 * ```
 */
export function instanceOf(schema: unknown, text: string): unknown {
  return build(schema, { root: schema, text, depth: 0 })
}

interface Context {
  readonly root: unknown
  readonly text: string
  /** The name of the property being written, a hint for its string value. */
  readonly key?: string
  readonly depth: number
}

function build(schema: unknown, ctx: Context): unknown {
  if (schema === true || schema === undefined) return textFor(ctx.key, ctx.text)
  if (!isObject(schema) || ctx.depth > 12) return null
  const next = { ...ctx, depth: ctx.depth + 1 }
  if (typeof schema.$ref === 'string') return build(resolveRef(schema.$ref, ctx.root), next)
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? schema.enum[0]
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined
  if (branches && branches.length > 0) return build(branches.find((b) => !(isObject(b) && b.type === 'null')) ?? branches[0], next)
  if (Array.isArray(schema.allOf)) return build(merged(schema.allOf, ctx.root), next)
  switch (typeOf(schema)) {
    case 'object':
      return objectOf(schema, next)
    case 'array':
      return arrayOf(schema, next)
    case 'string':
      return stringOf(schema, textFor(ctx.key, ctx.text))
    case 'integer':
      return numberOf(schema, true)
    case 'number':
      return numberOf(schema, false)
    case 'boolean':
      return true
    default:
      return null
  }
}

/** The type to write: the first non-null one listed, else guessed from the keywords present. */
function typeOf(schema: Schema): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  const chosen = types.find((t) => typeof t === 'string' && t !== 'null') ?? types[0]
  if (typeof chosen === 'string') return chosen
  if (isObject(schema.properties)) return 'object'
  if ('items' in schema || 'prefixItems' in schema) return 'array'
  return 'string'
}

function objectOf(schema: Schema, ctx: Context): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const properties = isObject(schema.properties) ? schema.properties : {}
  // defineProperty keeps a property named __proto__ as data.
  for (const key of Object.keys(properties)) {
    Object.defineProperty(out, key, { value: build(properties[key], { ...ctx, key }), enumerable: true, writable: true, configurable: true })
  }
  return out
}

function arrayOf(schema: Schema, ctx: Context): unknown[] {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
  const min = typeof schema.minItems === 'number' ? schema.minItems : 1
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity
  const count = Math.min(Math.max(min, prefix.length, 1), max)
  return Array.from({ length: count }, (_, i) => build(i < prefix.length ? prefix[i] : (schema.items ?? true), ctx))
}

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T12:00:00Z',
  date: '2025-01-01',
  time: '12:00:00Z',
  email: 'sim@example.com',
  uri: 'https://example.com/sim',
  url: 'https://example.com/sim',
  uuid: '00000000-0000-4000-8000-000000000000',
}

function stringOf(schema: Schema, text: string): string {
  const known = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined
  let value = [...(known ?? text)]
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity
  if (value.length > max) value = value.slice(0, max)
  while (value.length < min) value.push('x')
  return value.join('')
}

function numberOf(schema: Schema, integer: boolean): number {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined)
  const step = integer ? 1 : 0.5
  const low = num('exclusiveMinimum') !== undefined ? num('exclusiveMinimum')! + step : num('minimum')
  const high = num('exclusiveMaximum') !== undefined ? num('exclusiveMaximum')! - step : num('maximum')
  let value = low !== undefined && high !== undefined ? (low + high) / 2 : (low ?? (high !== undefined ? Math.min(high, integer ? 3 : 0.5) : integer ? 3 : 0.5))
  if (integer) value = low !== undefined && high === undefined ? Math.ceil(value) : Math.floor(value)
  if (integer && low !== undefined && value < low) value = Math.ceil(low)
  const multiple = num('multipleOf')
  if (multiple) value = Math.ceil(value / multiple) * multiple
  return value
}

/** A string property's value: the input text, tagged by a hint in the key's name. */
function textFor(key: string | undefined, text: string): string {
  if (key === undefined || /name|title|topic|subject|city|location|place|query/i.test(key)) return text
  return `${key.replace(/[_-]+/g, ' ')}: ${text}`
}

function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return true
  return ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (isObject(node) && Object.hasOwn(node, part) ? node[part] : undefined), root)
}

function merged(parts: unknown[], root: unknown): Schema {
  const all = parts.map((part) => (isObject(part) && typeof part.$ref === 'string' ? resolveRef(part.$ref, root) : part)).filter(isObject)
  const properties = Object.assign({}, ...all.map((part) => (isObject(part.properties) ? part.properties : {})))
  return { ...Object.assign({}, ...all), properties }
}
