/**
 * The admin providers card lists providers in PROVIDERS order (the registry, not the alphabet),
 * then any name the registry no longer has, alphabetically (a retired provider's health rows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerOverview } from '../../server/domains/video/service.ts';
import { recordAccepted } from '../../server/domains/video/health-repository.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';

describe.each(databaseKinds)('provider overview on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database?.dispose());

  it('orders rows as PROVIDERS does, unregistered names last', async () => {
    await recordAccepted(database.db, 'zeta-retired');
    await recordAccepted(database.db, 'alpha-retired');
    const rows = await providerOverview(database.db, {
      text: [
        { provider: 'local', model: 'local' },
        { provider: 'gemini', model: 'gemini-omni-1.2-flash' },
      ],
      image: [
        { provider: 'replicate', model: 'google/veo-3.1' },
        { provider: 'fal', model: 'fal-ai/veo3.1/image-to-video' },
      ],
    });
    expect(rows.map((r) => r.provider)).toEqual([
      'fal',
      'replicate',
      'gemini',
      'local',
      'alpha-retired',
      'zeta-retired',
    ]);
  });
});
