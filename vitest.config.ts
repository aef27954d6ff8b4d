import { defineConfig } from 'vitest/config';

// Test files run in separate forks, each with its own database (see test/helpers/app.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { TZ: 'UTC', NODE_ENV: 'test' },
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
