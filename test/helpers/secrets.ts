import util from 'node:util'
import { expect } from 'vitest'
import { KEY } from './fixtures.js'

export interface Renderings {
  readonly message: string
  readonly string: string
  readonly stack: string
  readonly json: string
  readonly inspect: string
  readonly inspectAll: string
  readonly cause: string
}

/** Every way an error gets logged; none of them may throw. */
export function renderings(err: unknown): Renderings {
  const e = err as Error & { cause?: unknown }
  return {
    message: String(e.message),
    string: String(e),
    stack: String(e.stack),
    json: String(JSON.stringify(e)),
    inspect: util.inspect(e),
    inspectAll: util.inspect(e, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    cause: util.inspect(e.cause, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  }
}

/** Every run of 8 consecutive characters of `key`. */
export function fragmentsOf(key: string, size = 8): string[] {
  const out: string[] = []
  for (let i = 0; i + size <= key.length; i++) out.push(key.slice(i, i + size))
  return out
}

/** Fails when any rendering of `err` holds 8 consecutive characters of the key. */
export function expectNoKeyFragment(err: unknown, key = KEY): void {
  for (const [how, text] of Object.entries(renderings(err))) {
    const leaked = fragmentsOf(key).find((f) => text.includes(f))
    expect(leaked, `"${leaked}" of the key appears in the error's ${how}: ${text.slice(0, 300)}`).toBeUndefined()
  }
}
