import type { SimClock } from './clock.js'
import type { FaultPlan } from './faultPlan.js'
import type { SimFaultRecord } from './faultTypes.js'
import type { IdempotencyStore } from './idempotency.js'
import type { Mutable, SimResponseRecord, SimTaskRecord } from './ledger.js'
import type { SimSettings } from './options.js'
import type { StoredResponse } from './responseModel.js'
import type { Task } from './taskModel.js'

/** The state one simulator's handlers share. */
export interface SimEnv {
  readonly settings: SimSettings
  readonly clock: SimClock
  readonly faults: FaultPlan
  /** Media tasks by id. */
  readonly tasks: Map<string, Task>
  /** Stored and background responses by id. */
  readonly responses: Map<string, StoredResponse>
  /** Every task created, in order. */
  readonly taskLedger: Mutable<SimTaskRecord>[]
  /** Every response created, in order. */
  readonly responseLedger: Mutable<SimResponseRecord>[]
  readonly idempotency: IdempotencyStore
  /** Every fault injected, in order. */
  readonly faultLog: SimFaultRecord[]
  /** The server's own address, e.g. `http://127.0.0.1:41234`, for the URLs it hands out. */
  readonly baseUrl: () => string
  /** Aborts when the simulator closes (for work outside a request, e.g. reading a task's audio). */
  readonly closing: AbortSignal
}
