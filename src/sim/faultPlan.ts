import type { ChaosDraw } from './call.js'
import { checkFaults } from './faultCheck.js'
import type { BadPollKind, SimFaults } from './faultTypes.js'
import { mulberry32 } from './prng.js'
import { createRateBucket, type RateBucket } from './rateBucket.js'

/** A planned fault that hits a whole gateway request, before its route runs. */
export type GatewayFault =
  | { readonly kind: 'rateLimit' }
  | { readonly kind: 'serverError'; readonly status: number }
  | { readonly kind: 'hugeErrorBody'; readonly bytes: number }

/** What the plan decided when a gateway request arrived. */
export interface Arrival {
  /** Set when the per-second bucket is empty: ms until a token is back. */
  readonly throttledForMs?: number
  readonly planned?: GatewayFault
  /** Set when chaos picked this request. */
  readonly chaos?: ChaosDraw
}

/** A planned creation fault. */
export type CreateFault = 'resetBeforeCreate' | 'resetAfterCreate' | 'garbledCreateReply'

/** The faults in force, with the counters and generators that make them deterministic. */
export interface FaultPlan {
  readonly current: SimFaults
  /** Replaces the faults (checked first), restarts every count, reseeds chaos and refills the bucket. */
  set(faults: SimFaults): void
  /** Counts one gateway request (at simulated time `nowMs`, for the bucket) and decides its gateway-wide faults. */
  arrive(nowMs: number): Arrival
  /** Counts one creation POST and says which creation fault hits it. */
  nextCreate(): CreateFault | undefined
  /** Counts one read of a known task and says which bad reply it gets. */
  nextTaskRead(): BadPollKind | undefined
}

/**
 * Creates a plan starting with `initial`. The per-second bucket runs on
 * `clock`, the simulator's: time moved forward with `advanceTime` refills it,
 * as it moves tasks on.
 */
export function createFaultPlan(initial: SimFaults = {}, clock: { now(): number } = { now: () => Date.now() }): FaultPlan {
  let faults: SimFaults = {}
  let counts = { gateway: 0, create: 0, taskRead: 0 }
  let random: () => number = Math.random
  let bucket: RateBucket | undefined
  const hits = (every: number | undefined, count: number): boolean => every !== undefined && count % every === 0

  const plan: FaultPlan = {
    get current() {
      return faults
    },
    set(next) {
      faults = checkFaults(next)
      counts = { gateway: 0, create: 0, taskRead: 0 }
      random = mulberry32(faults.chaos?.seed ?? 1)
      const perSecond = faults.rateLimitPerSecond
      bucket = perSecond ? createRateBucket(perSecond.limit, clock.now()) : undefined
    },
    arrive(nowMs) {
      const count = (counts.gateway += 1)
      // Draw for every request while chaos is set, so the sequence of draws depends on the order of requests only.
      const chaos = faults.chaos ? { hit: random() < faults.chaos.rate, pick: random(), extra: random() } : undefined
      const wait = bucket?.take(nowMs) ?? 0
      const { rateLimit, serverErrors, hugeErrorBody } = faults
      let planned: GatewayFault | undefined
      if (rateLimit && hits(rateLimit.every, count)) planned = { kind: 'rateLimit' }
      else if (serverErrors && hits(serverErrors.every, count)) planned = { kind: 'serverError', status: serverErrors.status ?? 500 }
      else if (hugeErrorBody && hits(hugeErrorBody.every, count)) planned = { kind: 'hugeErrorBody', bytes: hugeErrorBody.bytes }
      return {
        ...(wait > 0 ? { throttledForMs: wait } : {}),
        ...(planned ? { planned } : {}),
        ...(chaos?.hit ? { chaos: { pick: chaos.pick, extra: chaos.extra } } : {}),
      }
    },
    nextCreate() {
      const count = (counts.create += 1)
      if (hits(faults.resetBeforeCreate?.every, count)) return 'resetBeforeCreate'
      if (hits(faults.resetAfterCreate?.every, count)) return 'resetAfterCreate'
      if (hits(faults.garbledCreateReply?.every, count)) return 'garbledCreateReply'
      return undefined
    },
    nextTaskRead() {
      const count = (counts.taskRead += 1)
      return faults.badPollReply && hits(faults.badPollReply.every, count) ? faults.badPollReply.kind : undefined
    },
  }
  plan.set(initial)
  return plan
}
