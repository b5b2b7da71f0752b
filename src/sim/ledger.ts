/**
 * Every task the simulator created, in order. Tests and benchmarks count
 * from it: tasks created twice for one idempotency key, or created but
 * never reported to the client (`delivered` false and no `reads`).
 */
export interface SimTaskRecord {
  /** The task id (a UUID). */
  readonly id: string
  /** The creation path, e.g. `/vendors/vendor-b/v1/t2v-spark/generation`. */
  readonly path: string
  /** The `Idempotency-Key` of the creating request, if it had one. */
  readonly idempotencyKey?: string
  /** Simulated creation time, epoch ms. */
  readonly createdAt: number
  /** True once a complete creation reply carrying the id was sent (the original or an idempotent replay). */
  readonly delivered: boolean
  /** How many reads of the task arrived (faulted ones included). */
  readonly reads: number
}

/** Every response the simulator created, in order (idempotent replays create none). */
export interface SimResponseRecord {
  /** The response's id. */
  readonly id: string
  /** The `Idempotency-Key` of the creating request, if it had one. */
  readonly idempotencyKey?: string
  /** Simulated creation time, epoch ms. */
  readonly createdAt: number
  /** Created with `background: true`. */
  readonly background: boolean
  /** Created with `stream: true`. */
  readonly stream: boolean
  /** True once a complete JSON reply, or a stream frame, carrying the id was sent. */
  readonly delivered: boolean
}

/** A ledger entry as the simulator updates it. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }
