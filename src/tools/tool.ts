import type * as v from 'valibot'
import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { closeJsonSchema, valibotJsonSchema } from '../jsonSchemaFormat.js'
import { isStandardSchema, type InferSchemaOutput, type StandardSchemaV1 } from './standardSchema.js'
import type { ToolContext } from './types.js'

/** What {@link tool} is given. */
export interface ToolOptions<S extends StandardSchemaV1> {
  /** The function's name, as the model calls it: 1 to 64 letters, digits, `_` or `-`. */
  readonly name: string
  /** What the tool does and when to use it; the model reads it. */
  readonly description?: string
  /** The arguments' schema: valibot, or any Standard Schema (zod, arktype, …). */
  readonly parameters: S
  /** Runs the call with the validated arguments; returns the output as a value, a Promise or an Observable (its last value). */
  readonly execute: (args: InferSchemaOutput<S>, context: ToolContext) => unknown
  /** Strict mode: the model's arguments always match the schema; every property must be required (`v.nullable(x)`, not `v.optional(x)`). @defaultValue `true` */
  readonly strict?: boolean
  /** The JSON Schema sent to the model, for a schema library that cannot write one (valibot and Standard JSON Schema libraries write it themselves). */
  readonly jsonSchema?: Record<string, unknown>
}

/** A tool made by {@link tool}: what the model is offered and what answers its calls, from one declaration. */
// `any` by default: a list of tools with different argument types is a list of ToolDefinition.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ToolDefinition<Args = any> {
  /** The function's name, as the model calls it. */
  readonly name: string
  /** What the tool does, as the model reads it. */
  readonly description: string | undefined
  /** The arguments' schema, which validates each call's arguments before `execute` runs. */
  readonly parameters: StandardSchemaV1<unknown, Args>
  /** The JSON Schema of the arguments, as sent in the request's `tools`. */
  readonly jsonSchema: Record<string, unknown>
  /** Whether the request asks for strict mode (arguments always match the schema). */
  readonly strict: boolean
  /** Runs one call with its validated arguments (see {@link ToolOptions}). */
  readonly execute: (args: Args, context: ToolContext) => unknown
}

/**
 * A typed tool for `runTools$`: its JSON Schema for the model is written
 * from `parameters` (by `@valibot/to-json-schema` for valibot, by the
 * library itself for Standard JSON Schema ones such as zod 4), the model's
 * arguments are validated before `execute` runs, and `execute`'s argument
 * type is the schema's output. Arguments that break the schema go back to
 * the model as the call's output, so it can call again (see `runTools$`).
 *
 * Throws `InvalidRequestError` at once for a bad name, a schema that cannot
 * be written as JSON Schema or is not an object, or, in strict mode, an
 * optional property.
 *
 * @example
 * ```ts
 * const getWeather = tool({
 *   name: 'get_weather',
 *   description: 'The weather in a city now',
 *   parameters: v.object({ city: v.string() }),
 *   execute: ({ city }) => ({ city, temperature: 21 }),
 * })
 * runTools$(client, { model: 'gpt-4.1-mini', input: 'Use get_weather: weather in Paris?' }, [getWeather]).pipe(outputText())
 * ```
 */
export function tool<S extends StandardSchemaV1>(options: ToolOptions<S>): ToolDefinition<InferSchemaOutput<S>> {
  const { name, description, parameters, execute, jsonSchema } = options ?? ({} as ToolOptions<S>)
  const strict = options?.strict ?? true
  const issues: RequestIssue[] = []
  if (typeof name !== 'string' || !/^[\w-]{1,64}$/.test(name)) issues.push({ path: 'name', message: `must be 1 to 64 letters, digits, "_" or "-" (got ${JSON.stringify(name)})` })
  if (description !== undefined && typeof description !== 'string') issues.push({ path: 'description', message: 'must be a string' })
  if (typeof execute !== 'function') issues.push({ path: 'execute', message: 'must be a function' })
  if (typeof strict !== 'boolean') issues.push({ path: 'strict', message: 'must be a boolean' })
  let schema: Record<string, unknown> = {}
  if (!isStandardSchema(parameters)) issues.push({ path: 'parameters', message: 'must be a valibot schema or another Standard Schema (zod, arktype, …)' })
  else schema = writeSchema(parameters, jsonSchema, strict, issues)
  if (issues.length > 0) throw new InvalidRequestError(issues, `tool ${JSON.stringify(name)}`)
  return Object.freeze({ name, description, parameters, jsonSchema: schema, strict, execute } as ToolDefinition<InferSchemaOutput<S>>)
}

function writeSchema(parameters: StandardSchemaV1, given: unknown, strict: boolean, issues: RequestIssue[]): Record<string, unknown> {
  let root: Record<string, unknown>
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      issues.push({ path: 'jsonSchema', message: 'must be a JSON Schema object' })
      return {}
    }
    root = closeJsonSchema(structuredClone(given as Record<string, unknown>), strict, issues)
  } else if (parameters['~standard'].vendor === 'valibot') {
    root = valibotJsonSchema(parameters as unknown as v.GenericSchema<unknown, unknown>, strict, issues)
  } else if (typeof parameters['~standard'].jsonSchema?.input === 'function') {
    try {
      root = closeJsonSchema(parameters['~standard'].jsonSchema.input({ target: 'draft-07' }), strict, issues)
    } catch (err) {
      issues.push({ path: 'parameters', message: `cannot be written as JSON Schema: ${err instanceof Error ? err.message : String(err)}` })
      return {}
    }
  } else {
    issues.push({ path: 'jsonSchema', message: `is required: ${parameters['~standard'].vendor} schemas do not write their JSON Schema` })
    return {}
  }
  if (root.type !== 'object') issues.push({ path: 'parameters', message: 'must describe an object (the arguments are named)' })
  return root
}

/** A tool's entry in the request's `tools`. */
export function functionTool(definition: ToolDefinition): Record<string, unknown> {
  const { name, description, jsonSchema, strict } = definition
  return { type: 'function', name, ...(description ? { description } : {}), parameters: jsonSchema, strict }
}
