/**
 * Gives the complete file at `from` the name `to` only if nothing is there,
 * atomically: a hard link fails with `EEXIST` where `rename` would replace.
 * Resolves false when something is there. Where the file system has no hard
 * links, an exclusive copy (which also fails with `EEXIST`) takes their
 * place; `to` then fills as it is copied, and a copy that fails midway is
 * removed (nothing was at that name: the copy made it).
 *
 * @example
 * ```ts
 * if (!(await placeNew(fs, '.kite.mp4.1a2b.part', 'kite.mp4'))) console.log('kite.mp4 is there already: kept')
 * ```
 */
export async function placeNew(fs: typeof import('node:fs/promises'), from: string, to: string): Promise<boolean> {
  try {
    await fs.link(from, to)
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code === 'EEXIST') return false
    if (!NO_HARD_LINKS.has(String(code))) throw error
    try {
      await fs.copyFile(from, to, fs.constants.COPYFILE_EXCL)
    } catch (copyError) {
      if ((copyError as { code?: unknown } | null)?.code === 'EEXIST') return false
      await fs.rm(to, { force: true }).catch(() => {})
      throw copyError
    }
  }
  await fs.unlink(from)
  return true
}

/** What `link` fails with where the file system cannot make hard links (FAT, some network and FUSE file systems). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK'])
