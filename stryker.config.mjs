// Mutation testing of the core: everything in src/ but the simulator (the
// reference gateway the tests run against) and the command line.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: ['src/**/*.ts', '!src/sim/**', '!src/cli/**', '!src/cli.ts'],
  // Only what the in-process tests read is copied to the sandbox.
  ignorePatterns: ['.prof', 'examples', 'bench', 'reports', 'out', 'dist', 'coverage'],
  // A mutant in code that runs only while its module loads (a schema, a table)
  // would need every test file that loads the module: such mutants are listed
  // as ignored. `--ignoreStatic false` runs them too (hours longer). Tests that
  // load their module inside each test (the schema tests) run them anyway.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  concurrency: 2,
  timeoutMS: 10000,
  // The first run, with coverage per test, runs the whole suite instrumented: more than the default 5 minutes.
  dryRunTimeoutMinutes: 20,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
