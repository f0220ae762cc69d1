import { readFileSync } from 'node:fs';
import { globSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './tests/helpers/sequencer.ts';

const INCLUDE = [
  'tests/unit/**/*.test.ts',
  'tests/api/**/*.test.ts',
  'tests/security/**/*.test.ts',
];

/**
 * Files that change what every later file in their process would see: module mocks, stubbed
 * globals or environment, fake timers, spies, another DOM, process listeners or the working
 * directory. Each of these runs in a process of its own, as Vitest does by default.
 */
const CHANGES_THE_PROCESS =
  /vi\.mock\(|vi\.doMock|vi\.stubEnv|vi\.stubGlobal|vi\.resetModules|@vitest-environment|process\.chdir|process\.env(\.[A-Z_]+|\[[^\]]+\])\s*(\?\?)?=[^=]|delete process\.env|useFakeTimers|vi\.spyOn|globalThis\.[a-zA-Z]+\s*=|process\.on\(/;
const files = INCLUDE.flatMap((pattern) => globSync(pattern));
const isolated = files.filter((file) => CHANGES_THE_PROCESS.test(readFileSync(file, 'utf8')));
const shared = files.filter((file) => !isolated.includes(file));

export default defineConfig({
  test: {
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
    projects: [
      // Most files only create their own app, databases and directories and close them: they
      // share a worker process, so the server's modules (Fastify, Drizzle, PGlite, the AWS SDK…)
      // are loaded once per worker instead of once per file, which was a third of the run.
      { extends: true, test: { name: 'shared', include: shared, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
