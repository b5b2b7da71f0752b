import { pick, seedOf } from './pieces.js'

// Phrase pools for a one-paragraph cinematic prompt. The topic is the
// subject, so every pool must read well after any noun phrase.
const SHOT = ['Cinematic wide shot', 'Intimate close-up', 'Sweeping aerial view', 'Low-angle tracking shot', 'Slow handheld shot']
const SETTING = ['framed against a stormy sky', 'set in a misty valley at dawn', 'surrounded by drifting snow', 'beside a quiet harbour at dusk', 'in a rain-soaked neon city', 'across a sunlit wheat field']
const LIGHT = ['in warm golden-hour light', 'under cold blue moonlight', 'with soft diffused overcast light', 'lit by flickering lanterns']
const CAMERA = ['Slow dolly-in', 'Smooth orbit', 'Gentle crane up', 'Steady push-in']
const MOOD = ['a hopeful, tender mood', 'a calm, dreamlike mood', 'a tense, electric mood', 'a nostalgic mood']
const DETAIL = ['shallow focus, fine film grain', 'anamorphic flares and rich colour', 'drifting dust in the air', 'crisp detail at 24 fps']

/** Whether a request asks for a video prompt: the instructions or the user's text speak of video, film or shots. */
export function wantsVideoPrompt(instructions: string, userText: string): boolean {
  return /\bvideos?\b|text-to-video|\bfilm\b|\bcinematic\b|\bshots?\b|\bclip\b/i.test(`${instructions}\n${userText}`)
}

/**
 * The topic of a video request: what follows `about` (or `of`, `showing`),
 * else the whole text; trimmed to 12 words.
 *
 * @example
 * ```ts
 * topicOf('A short video about: a lighthouse') // 'a lighthouse'
 * ```
 */
export function topicOf(userText: string): string {
  const text = userText.replace(/\s+/g, ' ').trim()
  const found = /\babout:?\s+(.+)$/i.exec(text)?.[1] ?? /\b(?:of|showing|featuring):?\s+(.+)$/i.exec(text)?.[1] ?? text
  const topic = found.replace(/[.!?]+$/, '').split(' ').filter(Boolean).slice(0, 12).join(' ')
  return topic || 'a quiet city at dawn'
}

/**
 * Writes a one-paragraph cinematic video prompt about `topic` (20 to 50
 * words, the topic's words in it), its phrases seeded by the topic so the
 * same topic always gets the same prompt. It always holds an em dash, a
 * multibyte character that stream tests rely on.
 */
export function videoPromptAbout(topic: string): string {
  const seed = seedOf(topic)
  return (
    `${pick(seed, 0, SHOT)} of ${topic}, ${pick(seed, 1, SETTING)}, ${pick(seed, 2, LIGHT)}. ` +
    `${pick(seed, 3, CAMERA)} — ${pick(seed, 4, MOOD)}, ${pick(seed, 5, DETAIL)}, every frame lingering on ${topic}.`
  )
}
