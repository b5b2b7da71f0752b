import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * Packages a README block may import besides rxgate, linked from the repo's
 * node_modules: what a user's project holds beside rxgate (its peer rxjs,
 * valibot for `parsedOutput` schemas, Angular, vitest for the testing
 * examples (Angular's default test runner); `@types` gives tsc the Node types).
 */
const LINKED = ['rxjs', 'valibot', '@angular', 'vitest', '@types', '@opentelemetry']

/** A temporary package of README blocks: a user's project in miniature. */
export interface Workspace {
  readonly dir: string
  /** Writes `text` to `name` in the workspace and returns its path. */
  write(name: string, text: string): Promise<string>
  remove(): Promise<void>
}

/**
 * A directory under the OS temp dir holding a `"type": "module"` package
 * whose node_modules link `rxgate` to this repo and the peers to the repo's
 * own copies. Node and tsc both follow the links to the real paths, so the
 * blocks and rxgate share one rxjs, as in an installed app, and 'rxgate'
 * resolves through the package's `exports` map to the built dist/.
 */
export async function createWorkspace(): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-readme-'))
  await mkdir(join(dir, 'node_modules'))
  await symlink(ROOT, join(dir, 'node_modules', 'rxgate'), 'dir')
  for (const name of LINKED) {
    const target = join(ROOT, 'node_modules', name)
    if (existsSync(target)) await symlink(target, join(dir, 'node_modules', name), 'dir')
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'readme-blocks', private: true, type: 'module' }, null, 2))
  return {
    dir,
    write: async (name, text) => {
      const path = join(dir, name)
      await writeFile(path, text)
      return path
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}
