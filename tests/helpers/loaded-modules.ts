/**
 * Run as `node tests/helpers/loaded-modules.ts '<env as JSON>'` (tests/unit/lazy-imports.test.ts):
 * imports server/app.ts, then builds and closes the app on the config that environment gives,
 * with DATA_DIR in a temporary folder. Prints one JSON line: the packages and project files
 * loaded by the import alone, and by the import and the build together.
 *
 * Every module load goes through the resolve hook registered first (module.registerHooks sees
 * `import`, `import()` and `require` alike), so a package counts as loaded when any of its files
 * was resolved. The app is imported only after the hook is in place, hence the dynamic imports.
 */
import { registerHooks } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const resolved = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    resolved.add(result.url);
    return result;
  },
});

const root = path.resolve(import.meta.dirname, '../..');

/** `sharp`, `@aws-sdk/client-s3`, …: the package a file belongs to (its innermost node_modules). */
function loaded(): { packages: string[]; files: string[] } {
  const packages = new Set<string>();
  const files = new Set<string>();
  for (const url of resolved) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (match) packages.add(match[1]!);
    else files.add(path.relative(root, file));
  }
  return { packages: [...packages].sort(), files: [...files].sort() };
}

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const { buildApp } = await import('../../server/app.ts');
const afterImport = loaded();

const { loadConfig } = await import('../../server/config.ts');
const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-loaded-'));
try {
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }));
  await app.close();
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ afterImport, afterBuild: loaded() })}\n`);
