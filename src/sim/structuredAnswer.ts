import { isObject } from './checkKit.js'
import { instanceOf } from './schemaInstance.js'
import { factsOf, type NamedOutput } from './toolAnswer.js'

/**
 * The structured answer to a request that gives back function outputs and
 * asks for a `json_schema` format: a valid instance of the schema whose
 * strings tell what the functions returned, and whose top-level fields take
 * a returned value of the same name when it fits the field's schema.
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { temperature: { type: 'number' }, summary: { type: 'string' } } }
 * jsonFromOutputs(schema, [{ name: 'get_weather', output: '{"temperature":21}' }])
 * // { temperature: 21, summary: 'summary: get_weather returned temperature 21' }
 * ```
 */
export function jsonFromOutputs(schema: unknown, outputs: readonly NamedOutput[]): unknown {
  const value = instanceOf(schema, factsOf(outputs))
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : undefined
  if (!properties || !isObject(value)) return value
  const returned = outputs.map(({ output }) => parsed(output)).filter(isObject)
  for (const key of Object.keys(properties)) {
    const found = returned.find((fields) => Object.hasOwn(fields, key) && fits(properties[key], fields[key]))
    // defineProperty keeps a field named __proto__ as data.
    if (found) Object.defineProperty(value, key, { value: found[key], enumerable: true, writable: true, configurable: true })
  }
  return value
}

function parsed(output: string): unknown {
  try {
    return JSON.parse(output)
  } catch {
    return undefined
  }
}

/**
 * Whether a returned value may stand for a field: a string, number, integer
 * or boolean of the type asked, within its `enum`, `const`, bounds and lengths.
 * Anything else (objects, arrays, `$ref`s, unions) is left to the schema's own instance.
 */
function fits(schema: unknown, value: unknown): boolean {
  if (!isObject(schema) || typeof schema.type !== 'string') return false
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false
  if ('const' in schema && schema.const !== value) return false
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined)
  switch (schema.type) {
    case 'string':
      // A `format` or `pattern` is not checked here: such a field keeps the instance's own value.
      return typeof value === 'string' && schema.format === undefined && schema.pattern === undefined && [...value].length >= (num('minLength') ?? 0) && [...value].length <= (num('maxLength') ?? Infinity)
    case 'integer':
    case 'number':
      return (
        typeof value === 'number' &&
        (schema.type === 'number' || Number.isInteger(value)) &&
        value >= (num('minimum') ?? -Infinity) &&
        value <= (num('maximum') ?? Infinity) &&
        value > (num('exclusiveMinimum') ?? -Infinity) &&
        value < (num('exclusiveMaximum') ?? Infinity) &&
        (num('multipleOf') === undefined || Number.isInteger(value / num('multipleOf')!))
      )
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return false
  }
}
