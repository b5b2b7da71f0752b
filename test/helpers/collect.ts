import type { Observable, Subscription } from 'rxjs'

export interface Outcome<T> {
  values: T[]
  error: unknown
  completed: boolean
}

export interface Observed<T> extends Outcome<T> {
  readonly subscription: Subscription
  /** Resolves when the observable errors or completes. */
  readonly done: Promise<Outcome<T>>
}

/** Subscribes and records every notification. */
export function observe<T>(source: Observable<T>): Observed<T> {
  let finish!: (o: Outcome<T>) => void
  const done = new Promise<Outcome<T>>((resolve) => (finish = resolve))
  const state = { values: [] as T[], error: undefined as unknown, completed: false }
  const subscription = source.subscribe({
    next: (v) => state.values.push(v),
    error: (e: unknown) => {
      state.error = e
      finish({ values: state.values, error: e, completed: false })
    },
    complete: () => {
      state.completed = true
      finish({ values: state.values, error: undefined, completed: true })
    },
  })
  return Object.assign(state, { subscription, done }) as Observed<T>
}

/** Subscribes and resolves with every value and the way the observable ended. */
export function collect<T>(source: Observable<T>): Promise<Outcome<T>> {
  return observe(source).done
}

/** Collects the error the observable must end with; fails when it completes. */
export async function errorOf(source: Observable<unknown>): Promise<unknown> {
  const outcome = await collect(source)
  if (outcome.completed) throw new Error(`expected an error, got completion after ${JSON.stringify(outcome.values)}`)
  return outcome.error
}
