import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

// The suite that mutation testing runs: every test that exercises src/ in
// process. Tests of the built package, the CLI, the benchmarks and the real
// browser run dist/ or child processes, so a mutant of src/ is invisible to them.
export default mergeConfig(base, defineConfig({
  test: {
    // Instrumented code runs slower: the tests that read many megabytes (a 16 MiB line, a large
    // download) get more time here than in npm test.
    testTimeout: 60_000,
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
