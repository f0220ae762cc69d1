import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './tests/helpers/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/security/**/*.test.ts'],
    pool: 'forks',
    // Every file has its own databases (a PGlite in memory, a fresh PostgreSQL database) and
    // its own data directories, so files run side by side: two forks keep both cores busy while
    // one waits on PostgreSQL or a child process.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
