// ESLint with typescript-eslint's strict and stylistic presets, run by `npm test`.
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'docs/api/**', 'examples/**', 'node_modules/**', 'reports/**', '.stryker-tmp/**', 'coverage/**'] },
  ...tseslint.configs.strict,
  ...tseslint.configs.stylistic,
  {
    rules: {
      // With `noUncheckedIndexedAccess`, `xs[i]!` is how the code states an index it has just bounded.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A no-op is often the point: a rejection deliberately swallowed, a pass that observes nothing.
      '@typescript-eslint/no-empty-function': 'off',
      // `_` marks a parameter or a destructured field left out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: {
      // Tests reach into payloads of any shape.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
)
