import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// `npm test` builds first: these read the package as users get it.
const root = new URL('../..', import.meta.url).pathname
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }).trim()

describe('rxgate/node and the browser build', () => {
  it('rxgate/node gives toReadable and toTextReadable to ESM and CommonJS', () => {
    expect(node(['--input-type=module', '-e', "import { toReadable, toTextReadable } from 'rxgate/node'; console.log(typeof toReadable, typeof toTextReadable)"])).toBe('function function')
    expect(node(['-e', "const m = require('rxgate/node'); console.log(typeof m.toReadable, typeof m.toTextReadable)"])).toBe('function function')
  })

  it('the main entry types name no Node type (browser apps type-check without @types/node)', () => {
    // Import lines only: a TSDoc example may show a Node program.
    const imports = readFileSync(`${root}dist/index.d.ts`, 'utf8').split('\n').filter((line) => /^\s*(import|export)\b/.test(line))
    expect(imports.join('\n')).not.toMatch(/from ['"](node:)?(stream|fs|path)['"]/)
    expect(imports.join('\n')).toMatch(/from 'rxjs'/)
  })

  it('the browser download$ refuses a file path at once, naming the Blob target; no browser module imports node:', async () => {
    const script = `
      import { download$ } from './dist/browser/download/download$.js'
      download$('http://127.0.0.1:9/x.mp4', 'out/x.mp4').subscribe({ error: (e) => console.log(e.name, /Blob/.test(e.message)) })`
    expect(node(['--input-type=module', '-e', script])).toBe('InvalidRequestError true')
    for (const file of ['download/sink.js', 'download/download$.js', 'pipeline/toAsyncIterable.js']) {
      expect(readFileSync(`${root}dist/browser/${file}`, 'utf8'), file).not.toMatch(/from ['"]node:/)
    }
  })
})
