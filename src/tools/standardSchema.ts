import type { RequestIssue } from '../errors/InvalidRequestError.js'

// The Standard Schema interface (https://standardschema.dev), as its authors
// ask libraries to carry it: valibot, zod, arktype and others implement it,
// so a tool's parameters may be written with any of them.

/** One problem a schema found, with where (keys from the root). */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string
  /** Where: the keys from the root, each bare or as `{ key }`. */
  readonly path?: readonly (| PropertyKey
    | {
        /** One key of the path. */
        readonly key: PropertyKey
      })[] | undefined
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> =
  | {
      /** The validated value. */
      readonly value: Output
      /** Absent: the value passed. */
      readonly issues?: undefined
    }
  | {
      /** What is wrong with the value. */
      readonly issues: readonly StandardIssue[]
    }

/**
 * A schema of any library that implements Standard Schema v1 (valibot, zod
 * 3.24+, arktype, …). Those that also implement Standard JSON Schema
 * (`~standard.jsonSchema`, zod 4.2+) give their JSON Schema themselves.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The schema's Standard Schema properties, under a name no library uses for anything else. */
  readonly '~standard': {
    /** The version of the Standard Schema interface. */
    readonly version: 1
    /** The library that made the schema, e.g. `valibot` or `zod`. */
    readonly vendor: string
    /** Validates a value: its output, or the issues found. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    /** The input and output types, for type inference only (absent at run time). */
    readonly types?:
      | {
          /** The type the schema accepts. */
          readonly input: Input
          /** The type it gives once it has validated a value. */
          readonly output: Output
        }
      | undefined
    /** Standard JSON Schema: the schema's JSON Schema for a `target` draft, when the library gives one. */
    readonly jsonSchema?:
      | {
          /** The JSON Schema of the input, for a `target` such as `draft-2020-12`. */
          readonly input: (options: { readonly target: string }) => Record<string, unknown>
        }
      | undefined
  }
}

/** The type a Standard Schema gives once it has validated a value. */
export type InferSchemaOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output']

/** Whether `value` looks like a Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.['~standard']
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function'
}

/**
 * The issues as `{ path, message }`, each path its keys joined with dots
 * (`''` for the value itself), as rxgate's errors carry them.
 *
 * @example
 * ```ts
 * namedIssues([{ message: 'Invalid type', path: [{ key: 'city' }] }])
 * // → [{ path: 'city', message: 'Invalid type' }]
 * ```
 */
export function namedIssues(issues: readonly StandardIssue[]): RequestIssue[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((part) => String(typeof part === 'object' && part !== null ? part.key : part)).join('.'),
    message: issue.message,
  }))
}
