import type { Call } from './call.js'
import { chaosError, chaosFrame, takeChaos } from './chaos.js'
import type { SimEnv } from './env.js'
import { CHAOS_FAULTS } from './faultTypes.js'
import type { StreamFaults } from './sse.js'

/** What a creation POST must suffer, decided before anything is created. */
export interface CreationFaults {
  /** Destroy the socket before creating anything. */
  readonly resetBefore: boolean
  /** Create, then destroy the socket before any reply byte. */
  readonly resetAfter: boolean
  /** Create, then send a success reply cut mid-JSON. */
  readonly garbled: boolean
  /** Faults for this stream only (chaos on a streamed creation). */
  readonly stream: StreamFaults
}

/**
 * Counts one creation POST (after its body passed the checks; idempotent
 * replays count too) and decides its faults: the planned `resetBeforeCreate`,
 * `resetAfterCreate` or `garbledCreateReply`, else chaos, which may also
 * answer 429/503/500 at once (thrown) or cut a streamed creation's stream.
 */
export function creationFaults(call: Call, env: SimEnv, stream: boolean): CreationFaults {
  const none = { resetBefore: false, resetAfter: false, garbled: false, stream: {} }
  const planned = env.faults.nextCreate()
  if (planned) {
    call.note(planned)
    return { ...none, resetBefore: planned === 'resetBeforeCreate', resetAfter: planned === 'resetAfterCreate', garbled: planned === 'garbledCreateReply' }
  }
  const picked = takeChaos(call, stream ? CHAOS_FAULTS.streamCreate : CHAOS_FAULTS.create)
  if (!picked) return none
  const error = chaosError(picked.fault)
  if (error) throw error
  const frame = chaosFrame(picked.extra)
  return {
    ...none,
    resetBefore: picked.fault === 'resetBeforeCreate',
    resetAfter: picked.fault === 'resetAfterCreate',
    garbled: picked.fault === 'garbledCreateReply',
    stream: picked.fault === 'resetMidStream' ? { resetStreamAfter: frame } : picked.fault === 'closeMidEvent' ? { closeMidEventAt: frame } : {},
  }
}

/** The per-stream faults chaos picks for a replayed stream (`GET …?stream=true`). */
export function replayStreamFaults(call: Call): StreamFaults {
  const picked = takeChaos(call, CHAOS_FAULTS.stream)
  if (!picked) return {}
  const frame = chaosFrame(picked.extra)
  return picked.fault === 'resetMidStream' ? { resetStreamAfter: frame } : { closeMidEventAt: frame }
}
