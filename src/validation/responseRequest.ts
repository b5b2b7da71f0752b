import * as v from 'valibot'
import { bool, integerIn, numberIn, objectMessage, plainObject, text, textUpTo } from './fields.js'

const anyObject = plainObject(v.looseObject({}))

const metadata = v.pipe(
  plainObject(v.record(textUpTo(64), textUpTo(512)), 'must be an object of string values'),
  v.check((m) => Object.keys(m).length <= 16, (issue) => `must hold at most 16 pairs (got ${Object.keys(issue.input).length})`),
)

/**
 * The body of `POST /vendors/vendor-a/v1/responses`, with every constraint of
 * the interface. Fields the interface does not list are let through, as the
 * endpoint follows a widely used interface that grows new fields.
 */
export const ResponseRequestSchema = v.looseObject(
  {
    model: v.pipe(text, v.nonEmpty('must not be empty')),
    input: v.optional(v.union([text, v.array(anyObject, 'must hold message objects')], 'must be a string or an array of message objects')),
    instructions: v.nullish(text),
    previous_response_id: v.nullish(text),
    prompt: v.optional(anyObject),
    max_output_tokens: v.nullish(integerIn(1, Number.MAX_SAFE_INTEGER)),
    max_tool_calls: v.nullish(integerIn(0, Number.MAX_SAFE_INTEGER)),
    temperature: v.nullish(numberIn(0, 2)),
    top_p: v.nullish(numberIn(0, 1)),
    top_logprobs: v.nullish(integerIn(0, 20)),
    parallel_tool_calls: v.nullish(bool),
    stream: v.nullish(bool),
    background: v.nullish(bool),
    store: v.nullish(bool),
    text: v.optional(anyObject),
    tools: v.nullish(v.array(anyObject, 'must be an array of tool objects')),
    tool_choice: v.optional(
      v.union([v.picklist(['none', 'auto', 'required']), anyObject], 'must be "none", "auto", "required" or a tool object'),
    ),
    reasoning: v.optional(anyObject),
    truncation: v.nullish(v.picklist(['auto', 'disabled'], 'must be "auto" or "disabled"')),
    metadata: v.nullish(metadata),
    user: v.nullish(text),
    include: v.nullish(v.array(text, 'must be an array of strings')),
  },
  objectMessage,
)

/** A response-creation body as the caller writes it. */
export type ResponseRequest = v.InferInput<typeof ResponseRequestSchema>
