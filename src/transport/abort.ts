/** What a transport needs of an abort signal: undici takes any such EventTarget-like object. */
export interface AbortSignalLike {
  readonly aborted: boolean
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
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
  private listeners: Array<() => void> = []

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) listener()
    else this.listeners.push(listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners = this.listeners.filter((l) => l !== listener)
  }

  abort(): void {
    if (this.aborted) return
    this.aborted = true
    for (const listener of this.listeners.splice(0)) listener()
  }
}

/** A real `AbortSignal` that aborts with `signal`. */
export function toAbortSignal(signal: AbortSignalLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal
  const controller = new AbortController()
  signal.addEventListener('abort', () => controller.abort(), { once: true })
  return controller.signal
}
