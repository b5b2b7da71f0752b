/**
 * Calls a user's hook with `event`. A hook that throws never breaks the call
 * it observes: its error is rethrown on a later turn, where the process's
 * own handlers see it.
 */
export function callHook<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return
  try {
    hook(event)
  } catch (error) {
    setTimeout(() => {
      throw error
    })
  }
}
