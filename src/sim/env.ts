import type { SimClock } from './clock.js'
import type { FaultPlan } from './faults.js'
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
  /** The server's own address, e.g. `http://127.0.0.1:41234`, for the file URLs it hands out. */
  readonly baseUrl: () => string
}
