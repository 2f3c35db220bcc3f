// Test runner configuration: unit tests live beside the code they test
// (*.test.ts), end-to-end and cross-module suites under test/; the benches'
// own checks (that they load, how the summary prints) beside them in bench/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['codegen/**/*.test.ts', 'runtime/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
