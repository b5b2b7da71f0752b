import ts from 'typescript'

/** How a user's strict Node ESM project compiles the README's blocks. */
export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  moduleDetection: ts.ModuleDetectionKind.Force,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
}

/** A type error: where in the block (0-based line) and what. */
export interface BlockDiagnostic {
  readonly line: number | undefined
  readonly message: string
}

/**
 * Type-checks every file of `files` in one program (one pass over rxgate's
 * and the peers' declarations, however many blocks there are) and returns
 * each file's diagnostics. Errors of the program as a whole (its options)
 * are thrown.
 */
export function typecheck(files: readonly string[]): Map<string, BlockDiagnostic[]> {
  const program = ts.createProgram({ rootNames: files, options: COMPILER_OPTIONS })
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]
  if (global.length > 0) throw new Error(global.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'))
  const byFile = new Map<string, BlockDiagnostic[]>()
  for (const file of files) {
    const source = program.getSourceFile(file)
    if (!source) throw new Error(`${file} is not in the program`)
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    byFile.set(
      file,
      diagnostics.map((d) => ({
        line: d.start === undefined ? undefined : source.getLineAndCharacterOfPosition(d.start).line,
        message: `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      })),
    )
  }
  return byFile
}

/** `code` as an ES module for Node: types stripped, nothing else changed. */
export function transpile(code: string, fileName: string): string {
  return ts.transpileModule(code, { fileName, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText
}
