/** One broken rule: the field's dotted path and what the rule demands. */
export interface RequestIssue {
  readonly path: string
  readonly message: string
}

const SHOWN = 5

/** `path: message; …` for a message: the first five issues, then how many more. */
export function listIssues(issues: readonly RequestIssue[]): string {
  const shown = issues.slice(0, SHOWN).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
  if (issues.length > SHOWN) shown.push(`and ${issues.length - SHOWN} more`)
  return shown.join('; ').replace(/\.$/, '')
}
