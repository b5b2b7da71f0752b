import { isObject } from './checkKit.js'

/**
 * Arguments that break a tool's JSON schema, made from valid ones the way a
 * model gets them wrong: a required field left out; else a field of the
 * wrong type; else (a schema that constrains no field) an array where an
 * object is expected. The result is still JSON, so it reaches the tool,
 * which must report the error rather than run.
 *
 * @example
 * ```ts
 * brokenArguments({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, { city: 'Paris' })
 * // {}
 * brokenArguments({ type: 'object', properties: { days: { type: 'integer' } } }, { days: 3 })
 * // { days: 'three' }
 * ```
 */
export function brokenArguments(schema: unknown, valid: unknown): unknown {
  if (!isObject(valid) || !isObject(schema)) return [valid]
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string' && Object.hasOwn(valid, key)) : []
  if (required.length > 0) {
    const { [required[0]!]: _left, ...rest } = valid
    return rest
  }
  const properties = isObject(schema.properties) ? schema.properties : {}
  const typed = Object.keys(properties).find((key) => Object.hasOwn(valid, key) && wrongFor(properties[key]) !== undefined)
  if (typed !== undefined) return { ...valid, [typed]: wrongFor(properties[typed]) }
  return [valid]
}

/** A value of another type than a property's schema asks for, or `undefined` when it asks for none. */
function wrongFor(property: unknown): unknown {
  if (!isObject(property)) return undefined
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type
  if (type === 'string' || (Array.isArray(property.enum) && property.enum.every((value) => typeof value === 'string'))) return 3
  return typeof type === 'string' ? 'three' : undefined
}
