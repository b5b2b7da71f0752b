/** One broken rule: the field's dotted path and what the rule demands. */
export interface RequestIssue {
  /** Where in the input, its keys joined with dots (`tools.0.name`); `''` for the input itself. */
  readonly path: string
  /** What is wrong there, e.g. `must be an integer from 1 to 100 (got 0)`. */
  readonly message: string
}

const SHOWN = 5

/** `path: message; …` for a message: the first five issues, then how many more. */
export function listIssues(issues: readonly RequestIssue[]): string {
  const shown = issues.slice(0, SHOWN).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
  if (issues.length > SHOWN) shown.push(`and ${issues.length - SHOWN} more`)
  return shown.join('; ').replace(/\.$/, '')
}
