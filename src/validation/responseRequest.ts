import * as v from 'valibot'
import { RESPONSE_REQUEST as R } from '../contract/limits.js'
import { bool, characters, integerFrom, integerIn, numberIn, objectMessage, plainObject, text } from './fields.js'

const anyObject = plainObject(v.looseObject({}))

/**
 * `metadata`: at most 16 pairs of string keys and values, checked key by key.
 * Written out rather than with `v.record`, which skips the keys `__proto__`,
 * `constructor` and `prototype`: those are sent like any other, so they are
 * checked like any other.
 */
const metadata = v.pipe(
  v.custom<Record<string, string>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object of string values'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const keys = Object.keys(dataset.value)
    if (keys.length > R.metadataMaxPairs) addIssue({ message: `must hold at most ${R.metadataMaxPairs} pairs (got ${keys.length})` })
    for (const key of keys) {
      const value: unknown = dataset.value[key]
      const path = [{ type: 'object', origin: 'value', input: dataset.value, key, value }] as const
      if (characters(key) > R.metadataKeyMaxChars) {
        addIssue({ message: `keys must be at most ${R.metadataKeyMaxChars} characters (got ${characters(key)})`, path: [...path] as never })
      }
      if (typeof value !== 'string') addIssue({ message: 'must be a string', path: [...path] as never })
      else if (characters(value) > R.metadataValueMaxChars) {
        addIssue({ message: `must be at most ${R.metadataValueMaxChars} characters (got ${characters(value)})`, path: [...path] as never })
      }
    }
  }),
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
    max_output_tokens: v.nullish(integerFrom(R.maxOutputTokensMin)),
    max_tool_calls: v.nullish(integerFrom(0)),
    temperature: v.nullish(numberIn(R.temperatureMin, R.temperatureMax)),
    top_p: v.nullish(numberIn(R.topPMin, R.topPMax)),
    top_logprobs: v.nullish(integerIn(R.topLogprobsMin, R.topLogprobsMax)),
    parallel_tool_calls: v.nullish(bool),
    stream: v.nullish(bool),
    background: v.nullish(bool),
    store: v.nullish(bool),
    text: v.optional(anyObject),
    tools: v.nullish(v.array(anyObject, 'must be an array of tool objects')),
    tool_choice: v.optional(v.union([v.picklist(R.toolChoice), anyObject], `must be ${R.toolChoice.map((c) => `"${c}"`).join(', ')} or a tool object`)),
    reasoning: v.optional(anyObject),
    truncation: v.nullish(v.picklist(R.truncation, `must be ${R.truncation.map((c) => `"${c}"`).join(' or ')}`)),
    metadata: v.optional(metadata),
    user: v.nullish(text),
    include: v.nullish(v.array(text, 'must be an array of strings')),
  },
  objectMessage,
)

/**
 * A response-creation body as the caller writes it: `model` (required),
 * `input` (text or message objects), `instructions`, `previous_response_id`,
 * `stream`, `background`, `store`, `tools`, `tool_choice`, `text` (e.g. a
 * {@link JsonSchemaFormat}), `reasoning`, `max_output_tokens`, `temperature`,
 * `top_p`, `metadata`, `include` and the interface's other fields, each
 * checked before sending. Fields the interface does not list are sent as given.
 */
export type ResponseRequest = v.InferInput<typeof ResponseRequestSchema>
