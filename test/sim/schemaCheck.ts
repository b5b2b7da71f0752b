/**
 * A small JSON schema checker for the tests, written apart from the
 * simulator's instance writer so that one does not vouch for itself.
 * Returns the problems found (empty when the value is valid).
 */
export function problems(schema: any, value: unknown, root: any = schema, path = '$'): string[] {
  if (schema === true || schema === undefined) return []
  if (schema.$ref) return problems(schema.$ref.slice(2).split('/').reduce((node: any, key: string) => node[key], root), value, root, path)
  if ('const' in schema) return JSON.stringify(schema.const) === JSON.stringify(value) ? [] : [`${path}: not the const`]
  if (schema.enum) return schema.enum.some((v: unknown) => JSON.stringify(v) === JSON.stringify(value)) ? [] : [`${path}: not in enum`]
  if (schema.anyOf || schema.oneOf) {
    const branches: any[] = schema.anyOf ?? schema.oneOf
    return branches.some((b) => problems(b, value, root, path).length === 0) ? [] : [`${path}: no branch matches`]
  }
  if (schema.allOf) return schema.allOf.flatMap((b: any) => problems(b, value, root, path))
  const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]
  if (schema.nullable && value === null) return []
  if (types.length > 0 && !types.some((t) => typeMatches(t, value))) return [`${path}: expected ${types.join('|')}, got ${JSON.stringify(value)}`]
  const found: string[] = []
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) found.push(`${path}: shorter than ${schema.minLength}`)
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) found.push(`${path}: longer than ${schema.maxLength}`)
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) found.push(`${path}: below minimum`)
    if (schema.maximum !== undefined && value > schema.maximum) found.push(`${path}: above maximum`)
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) found.push(`${path}: not above exclusiveMinimum`)
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) found.push(`${path}: not below exclusiveMaximum`)
    if (schema.multipleOf !== undefined && Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9) found.push(`${path}: not a multiple`)
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) found.push(`${path}: too few items`)
    if (schema.maxItems !== undefined && value.length > schema.maxItems) found.push(`${path}: too many items`)
    value.forEach((item, i) => found.push(...problems(schema.prefixItems?.[i] ?? schema.items, item, root, `${path}[${i}]`)))
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const props = schema.properties ?? {}
    for (const key of schema.required ?? []) if (!Object.hasOwn(value, key)) found.push(`${path}.${key}: required`)
    for (const [key, v] of Object.entries(value)) {
      if (Object.hasOwn(props, key)) found.push(...problems(props[key], v, root, `${path}.${key}`))
      else if (schema.additionalProperties === false) found.push(`${path}.${key}: not allowed`)
    }
  }
  return found
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null
    case 'integer':
      return Number.isInteger(value)
    case 'number':
      return typeof value === 'number'
    case 'array':
      return Array.isArray(value)
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    default:
      return typeof value === type
  }
}
