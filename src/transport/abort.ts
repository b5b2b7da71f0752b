/** What a transport needs of an abort signal: undici takes any such EventTarget-like object. */
export interface AbortSignalLike {
  /** Whether it has aborted. */
  readonly aborted: boolean
  /** Why it aborted, when that is not its subscriber leaving (e.g. the exchange timed out). */
  readonly reason?: unknown
  /** Calls `listener` when it aborts. */
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
  /** Stops calling `listener`. */
  removeEventListener(type: 'abort', listener: () => void): void
}

/**
 * A one-shot abort switch. Each request needs one, and in Node 20 an
 * `AbortController` costs more to make than a loopback request costs to
 * send; this costs an array. Transports that need a real `AbortSignal`
 * (fetch) link one to it with {@link toAbortSignal}.
 */
export class AbortSwitch implements AbortSignalLike {
  aborted = false
  reason: unknown = undefined
  // A transport adds one listener: it is held in a field, and an array is
  // made only for more (an array costs more than the rest of the switch).
  private listener: (() => void) | undefined
  private more: (() => void)[] | undefined

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) listener()
    else if (!this.listener) this.listener = listener
    else (this.more ??= []).push(listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = undefined
    else if (this.more) this.more = this.more.filter((l) => l !== listener)
  }

  abort(reason?: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    const { listener, more } = this
    this.listener = this.more = undefined
    listener?.()
    for (const l of more ?? []) l()
  }
}

/** A real `AbortSignal` that aborts with `signal`. */
export function toAbortSignal(signal: AbortSignalLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal
  const controller = new AbortController()
  signal.addEventListener('abort', () => controller.abort(), { once: true })
  return controller.signal
}
