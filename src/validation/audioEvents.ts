import * as v from 'valibot'
import { byType, event } from './eventSchema.js'

// Audio output events: base64 audio chunks and the transcript of what is
// spoken. Unlike the others they name no item: a response speaks once.

/** Audio and audio transcript events, by type. */
export const AUDIO_EVENTS = byType(
  event('response.audio.delta', { delta: v.string() }),
  event('response.audio.done', {}),
  event('response.audio.transcript.delta', { delta: v.string() }),
  event('response.audio.transcript.done', {}),
)
