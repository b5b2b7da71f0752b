/** One ```ts block of a Markdown document. */
export interface ReadmeBlock {
  /** 1-based line of the opening fence in the document. */
  readonly line: number
  /** The code, without the fences and without the indentation of the opening fence. */
  readonly code: string
  /** The lines its `// Output:` comments promise, in order; undefined when it has none (a block that is only type-checked). */
  readonly output: readonly string[] | undefined
}

const FENCE = /^(?<indent> {0,3})(?<fence>`{3,}|~{3,})\s*(?<info>[^\s`]*)[^`]*$/
const TS = new Set(['ts', 'typescript'])
const OUTPUT = /(?:^|\s)\/\/\s*Output:(.*)$/
const COMMENT = /^\s*\/\/(.*)$/

/** Whether `line` closes a block opened by `fence`: the same character, at least as many, nothing else but spaces. */
function closes(line: string, fence: string): boolean {
  const indent = line.length - line.trimStart().length
  const rest = line.trim()
  return indent <= 3 && rest.length >= fence.length && [...rest].every((c) => c === fence[0])
}

/**
 * Every ```ts (or ```typescript) fenced block of `markdown`. Fences of any
 * other language are skipped whole, so a ts fence shown inside a ````md
 * block is not taken for a block.
 */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split(/\r?\n/)
  const blocks: ReadmeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!)?.groups
    if (!open) continue
    const { indent = '', fence = '```', info = '' } = open
    let end = i + 1
    while (end < lines.length && !closes(lines[end]!, fence)) end++
    if (TS.has(info.toLowerCase())) {
      // A fence indented in a list item indents its code as much: take that much off each line.
      const code = lines.slice(i + 1, end).map((line) => line.slice(Math.min(indent.length, line.length - line.trimStart().length)))
      blocks.push({ line: i + 1, code: code.join('\n') + '\n', output: outputOf(code) })
    }
    i = end
  }
  return blocks
}

/**
 * The lines a block's comments say it prints: `// Output: text` gives one
 * line; a bare `// Output:` gives the comment lines right below it, up to the
 * first line that is not a comment. Several such comments add up in order.
 */
export function outputOf(code: readonly string[]): string[] | undefined {
  let output: string[] | undefined
  for (let i = 0; i < code.length; i++) {
    const marker = OUTPUT.exec(code[i]!)
    if (!marker) continue
    output ??= []
    const rest = marker[1]!.trim()
    if (rest) {
      output.push(rest)
      continue
    }
    while (i + 1 < code.length && !OUTPUT.test(code[i + 1]!)) {
      const comment = COMMENT.exec(code[i + 1]!)
      if (!comment) break
      output.push(comment[1]!.trim())
      i++
    }
  }
  return output
}

/** What a program printed, as the lines an Output comment compares with: each trimmed, without blank lines at either end. */
export function printedLines(stdout: string): string[] {
  const lines = stdout.split(/\r?\n/).map((line) => line.trim())
  while (lines.length > 0 && lines[0] === '') lines.shift()
  while (lines.length > 0 && lines.at(-1) === '') lines.pop()
  return lines
}
