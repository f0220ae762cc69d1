/**
 * Finding 9 (issue 16), duplicate long titles: a title longer than the 100-character slug limit
 * is cut, so its `-2`, `-3`… slugs cut it further; saving such titles again, or at the same time,
 * collided on the unique slug and answered 500. Every save must succeed with its own slug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPost, isSlugTaken } from '../../server/domains/blog/repository.ts';
import { withFreeSlug } from '../../server/domains/blog/slug-allocation.ts';
import { SLUG_MAX_LENGTH } from '../../shared/slug.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

const SAVES = 30;

/** A 150-character title: its slug is cut at 100 characters. */
const longTitle = (word: string) =>
  Array.from({ length: 30 }, (_, i) => `${word}${i % 10}`)
    .join(' ')
    .slice(0, 150);

describe.each(databaseKinds)('duplicate long titles on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { BLOG_EDITORS: 'editor@example.com' } });
    token = (await signInLocal(t.app, 'editor@example.com', 'Eddie Editor')).token;
  });
  afterAll(() => t.close());

  const post = (title: string, status = 'draft') => ({
    title,
    content: `<p>${title}</p>`,
    status,
  });
  const create = (title: string, status?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/blog/admin/posts',
      headers: bearer(token),
      payload: post(title, status),
    });
  const update = (id: string, title: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/blog/admin/posts/${id}`,
      headers: bearer(token),
      payload: post(title),
    });

  /** Every answer 2xx, every slug distinct, lower-case and within the limit. */
  function expectDistinctSlugs(answers: Array<{ statusCode: number; body: string }>) {
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const slugs = answers.map((a) => (JSON.parse(a.body) as { data: { slug: string } }).data.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) {
      expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
      expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
    return slugs;
  }

  it('gives each of several saves of one long title, one after another, its own slug', async () => {
    const title = longTitle('serial');
    expect(title).toHaveLength(150);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await create(title));
    const slugs = expectDistinctSlugs(answers);
    expect(slugs[1]).toMatch(/-2$/);
    expect(slugs[3]).toMatch(/-4$/);
  });

  it(`gives each of ${SAVES} concurrent saves of one 150-character title its own slug`, async () => {
    const title = longTitle('parallel');
    const answers = await Promise.all(
      Array.from({ length: SAVES }, (_, i) => create(title, i % 2 ? 'published' : 'draft')),
    );
    expectDistinctSlugs(answers);
  });

  it('gives concurrent saves of titles whose slugs overlap ("Launch", "Launch 2") distinct slugs', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(i % 2 ? 'Launch' : 'Launch 2')),
    );
    expectDistinctSlugs(answers);
  });

  it('recognizes the unique violation of posts.slug as the driver reports it', async () => {
    const row = { title: 'Twin', content: '<p>x</p>', authorName: 'T', slug: 'twin-slug' };
    await insertPost(t.database.db, row);
    const error = await insertPost(t.database.db, row).catch((e: unknown) => e);
    expect(isSlugTaken(error)).toBe(true);
    expect(isSlugTaken(new Error('posts_slug_unique'))).toBe(false);
  });

  // PGlite runs one transaction at a time, so only PostgreSQL can lose a slug between the
  // choice and the write; here another connection commits the chosen slug in that gap.
  it.runIf(kind === 'postgres')(
    'chooses again when another connection commits the chosen slug first',
    async () => {
      const db = t.database.db;
      const seen: string[] = [];
      const row = await withFreeSlug(db, 'Raced title', null, async (tx, slug) => {
        seen.push(slug);
        if (seen.length === 1) {
          await insertPost(db, { title: 'Other', content: '<p>x</p>', authorName: 'T', slug });
        }
        return insertPost(tx, { title: 'Raced title', content: '<p>x</p>', authorName: 'T', slug });
      });
      expect(seen).toEqual(['raced-title', 'raced-title-2']);
      expect(row.slug).toBe('raced-title-2');
    },
  );

  it('gives concurrent renames of drafts to one long title distinct slugs', async () => {
    const drafts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(`Short draft ${i}`)),
    );
    const ids = drafts.map((d) => (d.json() as { data: { id: string } }).data.id);
    const title = longTitle('renamed');
    expectDistinctSlugs(await Promise.all(ids.map((id) => update(id, title))));
  });
});
