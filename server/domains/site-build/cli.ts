/**
 * `npm run build`: writes the published-posts snapshot and builds a new site release into
 * DATA_DIR/site, then makes it live. With the embedded database, stop `npm start` first (PGlite
 * allows one process); a running server rebuilds by itself when public content changes.
 */
import { loadConfig, loadDotEnv } from '../../config.ts';
import { buildApp } from '../../app.ts';

loadDotEnv();
const config = loadConfig();
const app = await buildApp({ ...config, logLevel: 'warn' }, { scheduler: false });
try {
  if (!app.siteBuilder) throw new Error('SERVE_SITE=false: there is no site to build.');
  await app.writeSnapshot();
  const manifest = await app.siteBuilder.build();
  console.log(
    `site release ${manifest.id} built in ${(manifest.durationMs / 1000).toFixed(1)} s and live`,
  );
} finally {
  await app.close();
}
