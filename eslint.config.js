import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'openapi/**', 'coverage/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Determinism: time and randomness come from core/ only.
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the store\'s seeded random (core/random.ts).' },
        { object: 'Date', property: 'now', message: 'Use the injected clock (core/clock.ts).' },
      ],
    },
  },
  {
    files: ['src/core/clock.ts', 'test/**', 'bin/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // A certificate's validity is in real time, whatever the mock's clock says; no answer shows it.
    files: ['src/tls/credentials.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tests read response bodies loosely on purpose; the OpenAPI check guards their shape.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
