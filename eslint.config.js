// One tool for lint and format: ESLint with typescript-eslint (type-aware) and @stylistic.
// `npm run lint` treats every warning as an error (--max-warnings 0); `npm run format` fixes style.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './tools/eslint-layers.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'firmware/**', 'test-results/**', '**/*.min.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  stylistic.configs.customize({ semi: true, arrowParens: true, braceStyle: '1tbs', quoteProps: 'as-needed' }),
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { zaptable: layersPlugin },
    rules: {
      'zaptable/layers': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@stylistic/max-len': ['error', { code: 130, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreComments: true }],
      '@stylistic/operator-linebreak': 'off',
      '@stylistic/indent-binary-ops': 'off',
      '@stylistic/multiline-ternary': 'off',
      '@stylistic/list-style': 'off',
      'no-restricted-syntax': ['error', {
        selector: 'MemberExpression[object.name=\'Math\'][property.name=\'random\']',
        message: 'Use a seeded generator (controller/rules/common/rng.ts): randomness must be replayable.',
      }],
    },
  },
  {
    // The rules engines are pure: no clock, no timers, no process, no console (design principle 1).
    // The buzzer logic is pure in the same way (docs/buzzer.md).
    files: ['controller/rules/**/*.ts', 'controller/buzzer/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error',
        { name: 'Date', message: 'Rules are pure: time arrives inside actions (`at`).' },
        { name: 'setTimeout', message: 'Rules are pure: no timers.' },
        { name: 'setInterval', message: 'Rules are pure: no timers.' },
        { name: 'process', message: 'Rules are pure: no process access.' },
        { name: 'console', message: 'Rules are pure: report through events, not logs.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    // Plain JavaScript (configs, tools, the bin, hardware examples) is linted without type information.
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
  },
);
