/**
 * `npm run build`: writes the published-posts snapshot and builds a new site release into
 * DATA_DIR/site, then makes it live, without starting the app: it opens only the database (for
 * the posts) and runs the site builder. With the embedded database, stop `npm start` first
 * (PGlite allows one process); a running server rebuilds by itself when public content changes.
 */
import { createMediaStore } from '../../core/media-store/index.ts';
import pino from 'pino';
import { ConfigError, loadConfig, loadDotEnv } from '../../config.ts';
import { openDatabase } from '../../core/db.ts';
import { acquireEmbeddedLock, EmbeddedDatabaseInUseError } from '../../core/embedded-lock.ts';
import { createBlogService } from '../blog/service.ts';
import { createPostsSiteBuilder, postsSnapshotPath, writePostsSnapshot } from './posts-snapshot.ts';

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (!config.serveSite) throw new ConfigError('SERVE_SITE=false: there is no site to build.');
  const lock = config.databaseUrl
    ? null
    : await acquireEmbeddedLock(config.dataDir, 'site-build').catch((error: unknown) => {
        if (!(error instanceof EmbeddedDatabaseInUseError)) throw error;
        throw new ConfigError(
          error.holder.owner === 'server'
            ? `${error.message} It rebuilds the site by itself when content changes; to build by hand, stop it first.`
            : error.message,
        );
      });
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const blog = createBlogService({
      db: database.db,
      // Only the snapshot is read here: no image is stored.
      store: createMediaStore(config),
      onPublicChange: () => {},
    });
    await writePostsSnapshot(postsSnapshotPath(config.dataDir), () => blog.snapshot());
    const builder = createPostsSiteBuilder({
      dataDir: config.dataDir,
      publicSiteUrl: config.publicSiteUrl,
      log: pino({ level: 'warn' }),
      articles: blog,
    });
    const manifest = await builder.build();
    console.log(
      `site release ${manifest.id} built in ${(manifest.durationMs / 1000).toFixed(1)} s and live`,
    );
  } finally {
    await database.close();
    await lock?.release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
