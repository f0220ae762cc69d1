/**
 * Starts the app for Playwright exactly as `npm start` does, on a clean database. The built site
 * release under DATA_DIR/site is kept between runs and rebuilt only when its sources changed.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';

const dataDir = path.resolve(process.env.DATA_DIR ?? '.test-output/e2e-data');
for (const dir of ['db', 'outbox'])
  rmSync(path.join(dataDir, dir), { recursive: true, force: true });
await import('../../server/main.ts');
