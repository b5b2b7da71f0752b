import { readdir } from 'node:fs/promises'

/**
 * What is left in `dir` once a download's clean-up has had its chance: the
 * listing, re-read until it is empty or 3 s have passed (a temporary file is
 * removed by the file system, outside any clock the test controls).
 */
export async function filesLeft(dir: string): Promise<string[]> {
  const end = Date.now() + 3_000
  while ((await readdir(dir)).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 2))
  return readdir(dir)
}
