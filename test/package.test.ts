import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// `npm test` builds first, so these read the package as users get it, by its
// own name through the `exports` map.
const root = new URL('..', import.meta.url).pathname
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }).trim()
const NAMES = ['createGateway', 'textDeltas', 'outputText', 'finalResponse', 'taskUrls', 'pollTask', 'backoff', 'taskEndpoint', 'HttpError', 'GatewayError']

describe('the built package', () => {
  it('imports from ESM', () => {
    const out = node(['--input-type=module', '-e', `import * as m from 'rxgate'; console.log(${JSON.stringify(NAMES)}.filter((n) => !m[n]).join(',') || 'ok', Object.keys(m.endpoints).length)`])
    expect(out).toBe('ok 6')
  })

  it('requires from CommonJS, with the same error classes working', () => {
    const out = node(['-e', `const m = require('rxgate'); const e = new m.HttpError({ method: 'GET', path: '/x', status: 429, body: '' }); console.log(${JSON.stringify(NAMES)}.filter((n) => !m[n]).join(',') || 'ok', e instanceof m.GatewayError, e.kind)`])
    expect(out).toBe('ok true rate_limit')
  })

  it('exports the simulator at rxgate/sim from both', () => {
    expect(node(['--input-type=module', '-e', "import { startSimulator } from 'rxgate/sim'; console.log(typeof startSimulator)"])).toBe('function')
    expect(node(['-e', "console.log(typeof require('rxgate/sim').startSimulator)"])).toBe('function')
  })

  it('ships types for both and a browser build without undici', () => {
    for (const file of ['index.d.ts', 'index.d.cts', 'sim.d.ts', 'browser/index.js', 'cli.js']) expect(existsSync(`${root}dist/${file}`)).toBe(true)
    expect(readFileSync(`${root}dist/browser/index.js`, 'utf8')).not.toContain('undici')
    expect(readFileSync(`${root}dist/index.js`, 'utf8')).toContain('undici')
  })
})
