import { createHash } from 'node:crypto'

// Word pools for a short cinematic video prompt. Each pick is a phrase, so
// every combination reads as a sentence of 20 to 40 words.
const POOLS = {
  shot: ['Cinematic wide shot', 'Intimate close-up', 'Sweeping aerial view', 'Low-angle tracking shot', 'Handheld medium shot'],
  subject: ['a lone cyclist', 'an old fisherman', 'a red paper kite', 'two dancers in white', 'a curious fox', 'a barista in a café'],
  action: ['gliding slowly through', 'pausing quietly in', 'spinning gently above', 'wandering across', 'racing along'],
  place: ['a rain-soaked neon street', 'a misty pine forest at dawn', 'a sunlit wheat field', 'a quiet harbour at dusk', 'a crowded night market'],
  light: ['in warm golden-hour light', 'under cold blue moonlight', 'with soft diffused overcast light', 'lit by flickering lanterns'],
  camera: ['Slow dolly-in', 'Smooth orbit', 'Gentle crane up', 'Steady push-in'],
  mood: ['a hopeful, tender mood', 'a calm, dreamlike mood', 'a tense, electric mood', 'a nostalgic mood'],
  detail: ['shallow focus, fine film grain', 'anamorphic flares and rich colour', 'drifting dust in the air', 'crisp detail, 24 fps'],
} as const

type Pool = keyof typeof POOLS

/**
 * Writes the reply to a prompt: a cinematic video prompt of 20 to 40 words
 * whose word choices are seeded by the prompt, so the same prompt always
 * gets the same reply. It always holds an em dash (a multibyte character).
 */
export function replyTo(prompt: string): string {
  const seed = createHash('sha256').update(prompt).digest()
  let index = 0
  const pick = (pool: Pool): string => {
    const options: readonly string[] = POOLS[pool]
    return options[(seed[index++] ?? 0) % options.length] ?? ''
  }
  return `${pick('shot')} of ${pick('subject')} ${pick('action')} ${pick('place')}, ${pick('light')}. ${pick('camera')} — ${pick('mood')}, ${pick('detail')}.`
}

/** Splits text into word-sized stream pieces that join back to it exactly: `['Slow', ' dolly-in', ...]`. */
export function piecesOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? []
}

/** A rough token count: the number of whitespace-separated words. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

/** Token usage in one of the two shapes seen in real traffic. */
export function usageOf(inputTokens: number, outputTokens: number, shape: 'spec' | 'openai'): Record<string, unknown> {
  const total_tokens = inputTokens + outputTokens
  if (shape === 'openai') {
    return {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens,
    }
  }
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  }
}

/**
 * The text of a request's `input` and `instructions`: a string input as it
 * is, or every `text`/string `content` inside structured messages, joined
 * by newlines.
 */
export function promptOf(input: unknown, instructions: unknown): string {
  const parts: string[] = []
  const collect = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value)
    else if (Array.isArray(value)) value.forEach(collect)
    else if (typeof value === 'object' && value !== null) {
      const { text, content } = value as { text?: unknown; content?: unknown }
      if (typeof text === 'string') parts.push(text)
      collect(content)
    }
  }
  if (typeof instructions === 'string') parts.push(instructions)
  collect(input)
  return parts.join('\n')
}
