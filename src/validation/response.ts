import * as v from 'valibot'
import { RESPONSE_STATUSES, RUNNING_RESPONSE_STATUSES } from '../contract/status.js'
import { OutputItemSchema } from './outputItems.js'

// The output items and their content parts are declared in outputItems.ts,
// toolItems.ts and contentParts.ts; re-exported here, where they always lived.
export { ContentPartSchema } from './contentParts.js'
export { OutputItemSchema, type OutputItem } from './outputItems.js'

const count = v.pipe(v.number(), v.integer(), v.minValue(0))
const optionalCount = v.nullish(count)

/**
 * Token usage in either shape seen in real traffic: the interface's
 * `prompt_tokens`/`completion_tokens` or `input_tokens`/`output_tokens`.
 */
export const UsageSchema = v.looseObject({
  prompt_tokens: optionalCount,
  completion_tokens: optionalCount,
  input_tokens: optionalCount,
  output_tokens: optionalCount,
  total_tokens: optionalCount,
  prompt_tokens_details: v.nullish(v.looseObject({ cached_tokens: optionalCount, audio_tokens: optionalCount })),
  completion_tokens_details: v.nullish(
    v.looseObject({
      reasoning_tokens: optionalCount,
      audio_tokens: optionalCount,
      accepted_prediction_tokens: optionalCount,
      rejected_prediction_tokens: optionalCount,
    }),
  ),
  input_tokens_details: v.nullish(v.looseObject({ cached_tokens: optionalCount })),
  output_tokens_details: v.nullish(v.looseObject({ reasoning_tokens: optionalCount })),
})

/** Every response status seen in real traffic; the interface lists four of them. */
export const ResponseStatusSchema = v.picklist(RESPONSE_STATUSES)

/** Error details of a failed response. */
export const ResponseErrorSchema = v.looseObject({
  code: v.nullish(v.union([v.string(), v.number()])),
  message: v.nullish(v.string()),
})

/** The Response object returned by response creation and retrieval. */
export const ResponseSchema = v.looseObject({
  // The id goes into retrieval paths, so it must be a plain path segment.
  id: v.pipe(v.string(), v.regex(/^[\w.:-]{1,256}$/, 'must be an id of letters, digits, "_", "-", "." or ":"'), v.check((id) => id !== '.' && id !== '..', 'must not be "." or ".."')),
  object: v.literal('response'),
  created_at: v.number(),
  model: v.string(),
  status: ResponseStatusSchema,
  output: v.nullish(v.array(OutputItemSchema)),
  output_text: v.nullish(v.string()),
  usage: v.nullish(UsageSchema),
  error: v.nullish(ResponseErrorSchema),
  /** Why an `incomplete` response stopped, e.g. `max_output_tokens` or `content_filter`. */
  incomplete_details: v.nullish(v.looseObject({ reason: v.nullish(v.string()) })),
})

/**
 * Token usage of a response, in either shape seen in real traffic:
 * `input_tokens`/`output_tokens` (with `input_tokens_details.cached_tokens`,
 * `output_tokens_details.reasoning_tokens`) or the interface's
 * `prompt_tokens`/`completion_tokens` (with `prompt_tokens_details`,
 * `completion_tokens_details`), and `total_tokens`. {@link usageOf} sums either.
 */
export type Usage = v.InferOutput<typeof UsageSchema>
/**
 * A response's status: the interface's `completed`, `incomplete`,
 * `in_progress` and `failed`, and `queued` and `cancelled` seen in real traffic.
 *
 * @useDeclaredType
 */
export type ResponseStatus = v.InferOutput<typeof ResponseStatusSchema>
/**
 * A model response: `id`, `object` (`'response'`), `created_at`, `model`,
 * `status` ({@link ResponseStatus}), `output` ({@link OutputItem}s),
 * `output_text`, `usage` ({@link Usage}), `error` (`code`, `message`) and
 * `incomplete_details` (`reason`). Other fields pass through as they came.
 */
export type Response = v.InferOutput<typeof ResponseSchema>

/** Statuses after which a response does not change any more. */
export function isTerminalStatus(status: ResponseStatus): boolean {
  return !RUNNING_RESPONSE_STATUSES.includes(status)
}
