/**
 * `npm run worker`: the background worker entry. Video tasks arrive with the video issue; until
 * then there is no queue to drain, so this checks the configuration and database and exits.
 */
import { loadConfig, loadDotEnv } from './config.ts';
import { openDatabase } from './core/db.ts';

loadDotEnv();
const config = loadConfig();
const database = await openDatabase(config);
await database.migrate();
console.log('worker: configuration and database OK; no background jobs are defined yet.');
await database.close();
