import { vi } from 'vitest'
import { main } from '../../src/cli/main.js'

/** What one run of the CLI in this process printed, and its exit code. */
export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs the CLI's `main` in this process with `env` as its environment,
 * capturing what it writes to stdout and stderr (restored after).
 */
export async function runInProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    const code = await main(args, env)
    return { code, stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}
