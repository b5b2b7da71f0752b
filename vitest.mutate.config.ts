import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

// The suite that mutation testing runs: every test that exercises src/ in
// process. Tests of the built package, the CLI, the benchmarks and the real
// browser run dist/ or child processes, so a mutant of src/ is invisible to them.
export default mergeConfig(base, defineConfig({
  test: {
    // Instrumented code runs slower: tests that read many megabytes get more time here than in
    // npm test, and the one that feeds a 16 MiB line to the relay's masking (minutes once
    // instrumented) runs in npm test only: mutants of that limit survive here.
    testTimeout: 60_000,
    testNamePattern: /^(?!.*holds a line of up to 16 MiB)/,
    exclude: [
      'test/browser/**',
      'test/package/**',
      'test/package.test.ts',
      'test/node/package.test.ts',
      'test/cli/**',
      'test/bench.test.ts',
      'test/readme.test.ts',
      'test/faults/faults.test.ts',
      'node_modules/**',
    ],
  },
}))
