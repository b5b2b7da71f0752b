import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { ROOT } from './workspace.js'

/** Generated output under docs/ (the API reference): not written by hand, so not checked as a guide. */
const GENERATED = ['docs/api']

/**
 * The Markdown documents a user reads, relative to the repo with `/`
 * separators: README.md, then every `.md` under docs/ (but the generated API
 * reference), in path order.
 */
export function documents(root: string = ROOT): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      const name = relative(root, path).split(sep).join('/')
      if (GENERATED.includes(name)) continue
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.md')) found.push(name)
    }
  }
  walk(join(root, 'docs'))
  return ['README.md', ...found.sort()]
}
