import type * as v from 'valibot'

/** Tests a value against a schema's rules without building a new value. */
export type FastCheck = (value: unknown) => boolean

type Node = {
  readonly kind: string
  readonly type: string
  readonly pipe?: readonly Node[]
  readonly wrapped?: Node
  readonly default?: unknown
  readonly entries?: Readonly<Record<string, Node>>
  readonly literal?: unknown
  readonly requirement?: unknown
}

/**
 * Derives from a valibot schema a check of the same rules that allocates
 * nothing. Valibot's object schemas copy every value they accept; a stream
 * carries tens of thousands of events, and the copies cost more than the
 * parsing of the JSON itself. The check is read from the schema, so the rules
 * stay declared once.
 *
 * Supports loose objects, strings, numbers, booleans, literals, optional,
 * nullable and nullish wrappers without defaults, and pipes with `integer`,
 * `min_value` and `max_value`. Any other schema gives `undefined`: use
 * valibot. A value the check refuses is to be parsed by valibot, which
 * reports the issues.
 */
export function compileCheck(schema: v.GenericSchema<unknown, unknown>): FastCheck | undefined {
  return compile(schema as unknown as Node)
}

function compile(node: Node): FastCheck | undefined {
  if (node.pipe) return compilePipe(node.pipe)
  switch (node.type) {
    case 'string':
      return (value) => typeof value === 'string'
    case 'number':
      return (value) => typeof value === 'number' && !Number.isNaN(value)
    case 'boolean':
      return (value) => typeof value === 'boolean'
    case 'literal': {
      const literal = node.literal
      return Number.isNaN(literal) ? undefined : (value) => value === literal
    }
    case 'optional':
    case 'nullable':
    case 'nullish': {
      const inner = node.default === undefined && node.wrapped ? compile(node.wrapped) : undefined
      if (!inner) return undefined
      if (node.type === 'optional') return (value) => value === undefined || inner(value)
      if (node.type === 'nullable') return (value) => value === null || inner(value)
      return (value) => value == null || inner(value)
    }
    case 'loose_object':
      return compileObject(node.entries ?? {})
    default:
      return undefined
  }
}

function compileObject(entries: Readonly<Record<string, Node>>): FastCheck | undefined {
  const keys: string[] = []
  const checks: FastCheck[] = []
  for (const [key, entry] of Object.entries(entries)) {
    const check = compile(entry)
    if (!check) return undefined
    keys.push(key)
    checks.push(check)
  }
  return (value) => {
    if (!value || typeof value !== 'object') return false
    const record = value as Record<string, unknown>
    for (let i = 0; i < keys.length; i++) if (!checks[i]!(record[keys[i]!])) return false
    return true
  }
}

function compilePipe([base, ...actions]: readonly Node[]): FastCheck | undefined {
  const first = base ? compile(base) : undefined
  if (!first) return undefined
  const rules: FastCheck[] = [first]
  for (const action of actions) {
    if (action.kind === 'metadata') continue
    const requirement = action.requirement as number
    if (action.type === 'integer') rules.push((value) => Number.isInteger(value))
    else if (action.type === 'min_value') rules.push((value) => (value as number) >= requirement)
    else if (action.type === 'max_value') rules.push((value) => (value as number) <= requirement)
    else return undefined
  }
  return (value) => rules.every((rule) => rule(value))
}
