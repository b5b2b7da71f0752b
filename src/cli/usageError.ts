/** Bad input to the CLI itself (an environment variable, a flag): one line on stderr, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
