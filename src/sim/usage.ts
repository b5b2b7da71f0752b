/**
 * Token usage in one of the two shapes seen in real traffic. Output tokens
 * include reasoning tokens; the total is always input plus output.
 *
 * @example
 * ```ts
 * usageOf(3, 4, 1, 'spec') // { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, …reasoning_tokens: 1… }
 * ```
 */
export function usageOf(inputTokens: number, outputTokens: number, reasoningTokens: number, shape: 'spec' | 'openai'): Record<string, unknown> {
  const total_tokens = inputTokens + outputTokens
  if (shape === 'openai') {
    return {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: reasoningTokens },
      total_tokens,
    }
  }
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoningTokens, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  }
}
