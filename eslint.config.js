// ESLint configuration (flat config), run by `npm run lint` and by `npm test`.
// - no-explicit-any is an error in runtime/ and codegen/ (tests and benches
//   may use `any` for fixtures and reaching into internals).
// - no-floating-promises (type-aware, through the TypeScript project service)
//   over runtime/, codegen/, test/ and bench/: a promise is awaited, returned,
//   or explicitly `void`ed where fire-and-forget is the intent.
// - the recommended rules of @eslint/js and typescript-eslint (the ones that
//   need no type information), minus the few listed below with the reason.
// generated/ is not linted: codegen writes it (ajv standalone code, protoc-gen-es
// output, data modules) and a test fails when it is stale.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['generated/**', 'dist/**', 'node_modules/**', 'data/**', '.cache/**', 'coverage/**', 'api-specs/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // `any` is checked where it matters (runtime/, codegen/, below); tests use it for fixtures.
      '@typescript-eslint/no-explicit-any': 'off',
      // `const { drop: _x, ...rest } = obj` is how a key is left out of a copy;
      // a leading underscore marks a parameter or binding kept for its position.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          ignoreRestSiblings: true,
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
        },
      ],
      // a ternary as a statement (`c ? a++ : b++`) is used deliberately in counting loops
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true, allowShortCircuit: true }],
      // `let t; const stop = () => clearTimeout(t); t = setTimeout(...)`: a closure reads it before its one assignment
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // off: the code matches control characters on purpose (escaping of
      // Warning headers and URLs, fuzz inputs), which is all this rule flags here
      'no-control-regex': 'off',
      // off: a cursor that starts at `this` and walks down a tree
      // (`let node: FieldSet = this`) is the only thing it flags, and is correct
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
  {
    files: ['runtime/**/*.ts', 'codegen/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
