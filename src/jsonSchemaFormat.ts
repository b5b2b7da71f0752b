import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { InvalidRequestError, type RequestIssue } from './errors/InvalidRequestError.js'

/** Options of {@link jsonSchemaFormat}. */
export interface JsonSchemaFormatOptions {
  /** What the output is for; the model reads it. */
  readonly description?: string
  /**
   * Strict mode: the model's output always matches the schema. It needs
   * every property required (write `v.nullable(x)` rather than
   * `v.optional(x)`) and no extra properties (every object is closed).
   *
   * @defaultValue `true`
   */
  readonly strict?: boolean
}

/** The `text.format` of a structured-output request. */
export interface JsonSchemaFormat {
  /** Always `json_schema`. */
  readonly type: 'json_schema'
  /** The format's name, which the model sees. */
  readonly name: string
  /** The JSON Schema the output keeps to. */
  readonly schema: Record<string, unknown>
  /** Whether the gateway holds the model to the schema exactly (strict structured output). */
  readonly strict: boolean
  /** What the output is for, which the model sees. */
  readonly description?: string
}

type Json = Record<string, unknown>

/**
 * The request's `text.format` for structured output, from a valibot schema:
 * its JSON Schema (by `@valibot/to-json-schema`, describing the JSON the
 * model writes, i.e. the schema's input) under `name`. Parse the answer with
 * `parsedOutput(schema)`, the same schema: checks JSON Schema cannot express
 * (`v.check`, …) are left out of the format but still applied there.
 *
 * Throws `InvalidRequestError` at once, before anything is sent, for a name
 * the API refuses, a schema with parts JSON Schema cannot hold (`v.date()`,
 * `v.function()`, …), or, in strict mode, optional properties.
 *
 * @example
 * ```ts
 * const Book = v.object({ title: v.string(), year: v.number() })
 * console.log(JSON.stringify(jsonSchemaFormat(Book, 'book')))
 * // Output: {"type":"json_schema","name":"book","schema":{"type":"object","properties":{"title":{"type":"string"},"year":{"type":"number"}},"required":["title","year"],"additionalProperties":false},"strict":true}
 * ```
 */
export function jsonSchemaFormat(schema: v.GenericSchema<unknown, unknown>, name: string, options: JsonSchemaFormatOptions = {}): JsonSchemaFormat {
  const strict = options.strict ?? true
  const issues: RequestIssue[] = []
  if (typeof name !== 'string' || !/^[\w-]{1,64}$/.test(name)) {
    issues.push({ path: 'name', message: `must be 1 to 64 letters, digits, "_" or "-" (got ${JSON.stringify(name)})` })
  }
  const root = valibotJsonSchema(schema, strict, issues)
  if (issues.length > 0) throw new InvalidRequestError(issues, 'structured output format')
  return { type: 'json_schema', name, schema: root, strict, ...(options.description ? { description: options.description } : {}) }
}

/**
 * The JSON Schema of the JSON a valibot schema accepts (its input), closed
 * as {@link closeJsonSchema} does; what cannot be written is pushed to
 * `issues` under `schema`. Shared by structured output and tool parameters.
 */
export function valibotJsonSchema(schema: v.GenericSchema<unknown, unknown>, strict: boolean, issues: RequestIssue[]): Json {
  let converted: Json = {}
  try {
    converted = toJsonSchema(schema, {
      typeMode: 'input',
      // A check JSON Schema cannot state is dropped from the format; the schema itself still applies it.
      overrideAction: (context) => (context.errors ? context.jsonSchema : undefined),
    }) as Json
  } catch (err) {
    issues.push({ path: 'schema', message: `cannot be written as JSON Schema: ${err instanceof Error ? err.message : String(err)}` })
  }
  return closeJsonSchema(converted, strict, issues)
}

/** A JSON Schema without its `$schema` key, every object closed and, in strict mode, each optional property pushed to `issues`. */
export function closeJsonSchema(converted: Json, strict: boolean, issues: RequestIssue[]): Json {
  const { $schema: _, ...root } = converted
  close(root, '', strict, issues)
  return root
}

/**
 * Closes every object (`additionalProperties: false`, as strict mode demands
 * and as `v.object` behaves: it keeps no unknown key) and, in strict mode,
 * notes each property that is not required.
 */
function close(node: unknown, path: string, strict: boolean, issues: RequestIssue[]): void {
  if (Array.isArray(node)) return node.forEach((item, i) => close(item, `${path}[${i}]`, strict, issues))
  if (!node || typeof node !== 'object') return
  const schema = node as Json
  const properties = schema.properties as Json | undefined
  if (properties && typeof properties === 'object') {
    schema.additionalProperties ??= false
    const required = new Set(Array.isArray(schema.required) ? schema.required : [])
    for (const key of Object.keys(properties)) {
      if (strict && !required.has(key)) {
        issues.push({ path: `schema${path}.${key}`, message: 'is optional, which strict mode does not allow: make it v.nullable(…), or pass strict: false' })
      }
    }
  } else if (schema.type === 'object') schema.additionalProperties ??= false
  if (strict && typeof schema.additionalProperties === 'object') {
    issues.push({ path: `schema${path}`, message: 'takes keys of any name (v.record or a rest), which strict mode does not allow: name its keys with v.object(…), or pass strict: false' })
  }
  for (const key of ['properties', '$defs', 'definitions']) {
    const children = schema[key]
    if (children && typeof children === 'object') for (const [name, child] of Object.entries(children)) close(child, `${path}.${name}`, strict, issues)
  }
  // The schemas of a record's values and of a rest hold objects too.
  for (const key of ['items', 'prefixItems', 'additionalProperties', 'additionalItems', 'anyOf', 'oneOf', 'allOf']) if (key in schema) close(schema[key], path, strict, issues)
}
