import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// `npm test` builds first; these check the tarball users would install.
const ROOT = new URL('../../', import.meta.url).pathname
const ENTRIES = ['.', './sim', './server', './angular', './testing', './otel']
// Angular's packages are ESM only, so rxgate/angular/testing (which a spec imports beside them) is too.
const ESM_ONLY = ['./angular/testing']
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  license: string
  exports: Record<string, unknown>
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
}

let dir: string
let tarball: string
let files: string[]

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rxgate-pack-'))
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[]
  tarball = join(dir, info!.filename)
  files = info!.files.map((file) => file.path)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every file the exports map points at. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value.replace(/^\.\//, '')]
  return value && typeof value === 'object' ? Object.values(value).flatMap(targets) : []
}

describe('the packed package', () => {
  it('ships its MIT licence, every file its exports name, and no source maps', () => {
    expect(pkg.license).toBe('MIT')
    expect(files).toContain('LICENSE')
    const licence = readFileSync(`${ROOT}LICENSE`, 'utf8')
    expect(licence).toMatch(/^MIT License/)
    expect(licence).toMatch(/Copyright \(c\) \d{4} rxgate contributors/)
    for (const entry of ENTRIES) expect(Object.keys(pkg.exports)).toContain(entry)
    for (const target of targets(pkg.exports)) expect(files, target).toContain(target)
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([])
  })

  it('passes publint --strict', async () => {
    const { publint } = await import('publint')
    const { formatMessage } = await import('publint/utils')
    const { messages, pkg: packed } = await publint({ pack: { tarball: readFileSync(tarball).buffer as ArrayBuffer }, strict: true })
    expect(messages.map((message) => formatMessage(message, packed) ?? message.code)).toEqual([])
  })

  it('passes @arethetypeswrong/cli for every entry, under every resolution', () => {
    const cli = `${ROOT}node_modules/@arethetypeswrong/cli/dist/index.js`
    // It exits 1 when it finds a problem: the JSON names them either way.
    const attw = (...args: string[]) => {
      const out = spawnSync(process.execPath, [cli, tarball, '--format', 'json', ...args], { encoding: 'utf8' }).stdout
      return (JSON.parse(out) as { analysis: { types: unknown; entrypoints: Record<string, unknown>; problems: unknown } }).analysis
    }
    const analysis = attw('--exclude-entrypoints', ...ESM_ONLY)
    expect(analysis.types).not.toBe(false)
    for (const entry of ENTRIES) expect(Object.keys(analysis.entrypoints)).toContain(entry)
    expect(Object.values(analysis.problems as object)).toEqual([])
    // The JSON lists every resolution's problems whatever the profile: those of `require` are expected here.
    const esm = attw('--entrypoints', ...ESM_ONLY)
    expect(Object.keys(esm.entrypoints)).toEqual(ESM_ONLY)
    const problems = Object.values(esm.problems as object) as { resolutionKind?: string }[]
    expect(problems.filter((p) => p.resolutionKind !== 'node16-cjs' && p.resolutionKind !== 'node10')).toEqual([])
  })

  it('asks nothing of users who need neither Angular nor Express', () => {
    for (const name of ['@angular/core', '@angular/common']) {
      expect(pkg.peerDependencies[name]).toBeDefined()
      expect(pkg.peerDependenciesMeta[name]?.optional).toBe(true)
    }
    expect(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter((name) => /express|@angular\/(?!core$|common$)/.test(name))).toEqual([])
  })

  it('keeps server and Angular code out of the main entry’s browser build', async () => {
    const { metafile } = await build({
      entryPoints: [`${ROOT}dist/browser/index.js`],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
      external: ['rxjs', 'valibot', 'eventsource-parser', '@valibot/*'],
    })
    const inputs = Object.keys(metafile.inputs)
    expect(inputs.length).toBeGreaterThan(10)
    expect(inputs.filter((path) => /\/(server|angular|sim)\/|undici|@angular/.test(path))).toEqual([])
  })
})
