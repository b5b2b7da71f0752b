import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/policy/defaults.js'

// The API reference states each option's default with `@defaultValue`; one
// taken from DEFAULTS names its entry, `{@link DEFAULTS | DEFAULTS.retry.count}`.
// DEFAULTS is the one source: a stated value that drifts from it fails here.

const SRC = new URL('../../src/', import.meta.url).pathname
const STATED = /@defaultValue `([^`]+)`[^\n]*?\{@link DEFAULTS \| DEFAULTS\.([\w.]+)\}/g

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

/** Every `@defaultValue` that names a DEFAULTS entry: where, the value written, and the entry. */
function statedDefaults(): { file: string; written: string; entry: string }[] {
  return sources(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(STATED)].map(([, written, entry]) => ({ file: file.slice(SRC.length), written: written!, entry: entry! })),
  )
}

function entryOf(path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], DEFAULTS)
}

describe('defaults in the API reference', () => {
  const stated = statedDefaults()

  it('finds the stated defaults (the pattern has not lost its way)', () => {
    expect(stated.length).toBeGreaterThanOrEqual(15)
  })

  it('states each one as DEFAULTS holds it', () => {
    const wrong = stated.filter(({ written, entry }) => {
      // The written value is a JS literal or expression (`600_000`, `32 * 1024 * 1024`, `{ count: 2, … }`).
      const value: unknown = new Function(`return (${written})`)()
      return entryOf(entry) === undefined || !isDeepStrictEqual(value, entryOf(entry))
    })
    expect(wrong).toEqual([])
  })

  it('states every entry of DEFAULTS on some option', () => {
    const named = new Set(stated.map(({ entry }) => entry.split('.')[0]))
    expect(Object.keys(DEFAULTS).filter((key) => !named.has(key))).toEqual([])
  })
})
