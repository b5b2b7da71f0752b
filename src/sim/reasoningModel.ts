/**
 * Whether a model is treated as a reasoning model: `o` and a digit (`o1`,
 * `o3-mini`, `o4-mini`) or `gpt-5…`. Such a model answers with a reasoning
 * item first, and is the only kind that takes the `reasoning` field.
 *
 * @example
 * ```ts
 * isReasoningModel('o3-mini') // true
 * isReasoningModel('gpt-4o')  // false
 * ```
 */
export function isReasoningModel(model: string): boolean {
  return /^o\d/.test(model) || model.startsWith('gpt-5')
}
