// Builds dist/ only when what it is built from changed since the last build
// (`npm start` runs this first): the sources, the build config and the
// package manifest, compared by content, not by date. Says what it does.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const stamp = join(root, 'dist', '.source-hash')
const inputs = ['src', 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json']

function files(path) {
  const full = join(root, path)
  if (!existsSync(full)) return []
  try {
    return readdirSync(full, { withFileTypes: true })
      .flatMap((entry) => files(join(path, entry.name)))
      .sort()
  } catch {
    return [path] // a file
  }
}

const hash = createHash('sha256')
for (const file of inputs.flatMap(files)) hash.update(`${relative(root, join(root, file))}\0`).update(readFileSync(join(root, file)))
const digest = hash.digest('hex')

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
  console.error('rxgate: dist/ is up to date with src/; no build needed.')
} else {
  console.error(existsSync(stamp) ? 'rxgate: src/ changed since the last build; building dist/ (about 15 s)…' : 'rxgate: building dist/ once (about 15 s)…')
  const run = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (run.status !== 0) process.exit(run.status ?? 1)
  writeFileSync(stamp, digest)
}
