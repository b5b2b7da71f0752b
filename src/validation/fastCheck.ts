import type * as v from 'valibot'
import { objectCheck } from './objectCheck.js'

/** Tests a value against a schema's rules without building a new value. */
export type FastCheck = (value: unknown) => boolean

interface Node {
  readonly kind: string
  readonly type: string
  readonly pipe?: readonly Node[]
  readonly wrapped?: Node
  readonly default?: unknown
  readonly entries?: Readonly<Record<string, Node>>
  readonly options?: readonly unknown[]
  readonly key?: string | Node
  readonly value?: Node
  readonly item?: Node
  readonly literal?: unknown
  readonly requirement?: unknown
  readonly check?: FastCheck
  readonly async?: boolean
  readonly '~run'?: (dataset: { typed: true; value: unknown }, config: object) => { readonly issues?: unknown }
}

const cache = new WeakMap<object, FastCheck | null>()

/**
 * Derives from a valibot schema a check of the same rules that allocates
 * nothing. Valibot's object schemas copy every value they accept; streams
 * carry tens of thousands of events and servers answer thousands of calls a
 * second, and the copies cost more than parsing the JSON itself. The check is
 * read from the schema, so every rule stays declared once, in the schema.
 *
 * Returns `undefined` for a schema that changes what it accepts (defaults,
 * transforms, object schemas that strip keys) or uses a rule not read here:
 * use valibot for those. A union is read up to its first such option. A value the check refuses is to be parsed by
 * valibot, which reports the issues.
 */
export function compileCheck(schema: v.GenericSchema<unknown, unknown>): FastCheck | undefined {
  let check = cache.get(schema)
  if (check === undefined) {
    check = compile(schema as unknown as Node) ?? null
    cache.set(schema, check)
  }
  return check ?? undefined
}

function compile(node: Node): FastCheck | undefined {
  // An async schema answers with a promise: there is no synchronous answer to read.
  if (node.async) return undefined
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
    case 'picklist': {
      const options = node.options ?? []
      return (value) => options.includes(value)
    }
    case 'optional':
    case 'nullable':
    case 'nullish': {
      const inner = node.default === undefined && node.wrapped ? compile(node.wrapped) : undefined
      if (!inner) return undefined
      // The usual optional scalars in one closure, not two: they are on every event of a stream.
      const leaf = node.wrapped!.pipe ? undefined : node.wrapped!.type
      if (node.type === 'optional' && leaf === 'string') return (value) => value === undefined || typeof value === 'string'
      if (node.type === 'optional' && leaf === 'number') return (value) => value === undefined || (typeof value === 'number' && !Number.isNaN(value))
      if (node.type === 'optional') return (value) => value === undefined || inner(value)
      if (node.type === 'nullable') return (value) => value === null || inner(value)
      return (value) => value == null || inner(value)
    }
    case 'loose_object':
      return compileObject(node.entries ?? {})
    case 'array': {
      const item = node.item && compile(node.item)
      // A loop, not \`every\`: a hole is read as \`undefined\`, as valibot reads it.
      return (
        item &&
        ((value) => {
          if (!Array.isArray(value)) return false
          for (const element of value) if (!item(element)) return false
          return true
        })
      )
    }
    case 'record':
      return compileRecord(node)
    case 'union': {
      // Valibot takes the first option that accepts a value. The options
      // before the first that changes what it accepts (a transform) are
      // read; a value none of them passes goes to valibot.
      const options: FastCheck[] = []
      for (const option of node.options as Node[]) {
        const check = compile(option)
        if (!check) break
        options.push(check)
      }
      return options.length > 0 ? (value) => options.some((option) => option(value)) : undefined
    }
    case 'variant':
      return compileVariant(node)
    case 'custom':
      return node.check
    default:
      return undefined
  }
}

function compileAll(nodes: readonly Node[]): FastCheck[] | undefined {
  const checks = nodes.map(compile)
  return checks.every(Boolean) ? (checks as FastCheck[]) : undefined
}

function compileObject(entries: Readonly<Record<string, Node>>): FastCheck | undefined {
  const keys = Object.keys(entries)
  const checks = compileAll(Object.values(entries))
  if (!checks) return undefined
  return objectCheck?.(keys, checks) ?? ((value) => {
    if (!value || typeof value !== 'object') return false
    const record = value as Record<string, unknown>
    for (let i = 0; i < keys.length; i++) if (!checks[i]!(record[keys[i]!])) return false
    return true
  })
}

function compileRecord(node: Node): FastCheck | undefined {
  const key = node.key && compile(node.key as Node)
  const value = node.value && compile(node.value)
  if (!key || !value) return undefined
  return (input) => {
    if (!input || typeof input !== 'object') return false
    for (const name in input) {
      // Valibot skips the keys that could pollute a prototype.
      if (name === '__proto__' || name === 'prototype' || name === 'constructor' || !Object.hasOwn(input, name)) continue
      if (!key(name) || !value((input as Record<string, unknown>)[name])) return false
    }
    return true
  }
}

function compileVariant(node: Node): FastCheck | undefined {
  const key = node.key as string
  const options = node.options as Node[]
  if (!options.every((option) => option.entries?.[key])) return undefined // nested variants are not read
  const discriminators = compileAll(options.map((option) => option.entries![key]!))
  const checks = compileAll(options)
  if (!discriminators || !checks) return undefined
  // As valibot does: the value passes if any option whose discriminator accepts it passes.
  return (value) => {
    if (!value || typeof value !== 'object') return false
    const tag = (value as Record<string, unknown>)[key]
    for (let i = 0; i < checks.length; i++) if (discriminators[i]!(tag) && checks[i]!(value)) return true
    return false
  }
}

function compilePipe([base, ...actions]: readonly Node[]): FastCheck | undefined {
  const first = base ? compile(base) : undefined
  if (!first) return undefined
  const rules: FastCheck[] = [first]
  let last = base!
  for (const action of actions) {
    if (action.kind === 'metadata') continue
    if (action.async) return undefined
    // Valibot hands a raw check the last schema's output: a copy, for an object or a list (without keys such as
    // `__proto__`). It is read only after a schema whose output is its input.
    if (action.type === 'raw_check' && !SAME_OUTPUT.has(last.type)) return undefined
    if (action.kind === 'schema') last = action
    const rule = action.kind === 'validation' ? compileAction(action) : action.kind === 'schema' ? compile(action) : undefined
    if (!rule) return undefined
    // `integer` implies `number` (a NaN is not an integer): one check does for both, when the number has no rules of its own.
    if (action.type === 'integer' && rules.length === 1 && base?.type === 'number' && !base.pipe) rules[0] = rule
    else rules.push(rule)
  }
  return all(rules)
}

/** The schemas whose output is their input itself, which a raw check after them sees as valibot shows it. */
const SAME_OUTPUT = new Set(['custom', 'string', 'number', 'boolean', 'literal', 'picklist'])

/** One check that passes when every check passes, with no loop for the usual one to three. */
function all(checks: FastCheck[]): FastCheck {
  const [a, b, c] = checks as [FastCheck, FastCheck?, FastCheck?]
  if (checks.length === 1) return a
  if (checks.length === 2) return (value) => a(value) && b!(value)
  if (checks.length === 3) return (value) => a(value) && b!(value) && c!(value)
  return (value) => {
    for (const check of checks) if (!check(value)) return false
    return true
  }
}

function compileAction(action: Node): FastCheck | undefined {
  const { type, requirement } = action
  const n = requirement as number
  switch (type) {
    case 'integer':
      return (value) => Number.isInteger(value)
    case 'min_value':
      return (value) => (value as number) >= n
    case 'max_value':
      return (value) => (value as number) <= n
    case 'min_length':
      return (value) => (value as string).length >= n
    case 'max_length':
      return (value) => (value as string).length <= n
    case 'non_empty':
      return (value) => (value as string).length > 0
    case 'regex':
    case 'uuid':
      return (value) => (requirement as RegExp).test(value as string)
    case 'check':
    case 'partial_check':
      return requirement as FastCheck
    case 'raw_check': {
      // A raw check only reports issues (it cannot change the value): run on a
      // value already typed, it passes when it reported none.
      const run = action['~run']
      return run && ((value) => !run.call(action, { typed: true, value }, {}).issues)
    }
    default:
      return undefined
  }
}
