import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizePostHtml } from '../../server/domains/blog/sanitizer.ts';
import { findPlan } from '../../shared/billing.ts';
import { fillCopyDeep, videosFor } from '../../shared/plan-copy.ts';
import { VIDEO_COST } from '../../shared/video.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { readdir, readFile } from 'node:fs/promises';

const seedDir = path.resolve(import.meta.dirname, '../../content/blog-seed');

describe('sample articles (local mode, first start)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('publishes the articles of content/blog-seed once, with their featured images', async () => {
    expect(await t.app.blog.seedSamples(seedDir)).toBe(4);
    expect(await t.app.blog.seedSamples(seedDir)).toBe(0);
    const list = (await t.app.inject({ url: '/api/blog/posts' })).json().data;
    expect(list.pagination.total).toBe(3);
    const chinese = (await t.app.inject({ url: '/api/blog/posts?locale=zh-CN' })).json().data;
    expect(chinese.pagination.total).toBe(1);
    for (const post of [...list.posts, ...chinese.posts]) {
      expect(post.featured_image).toMatch(/^\/uploads\/blog\/[0-9a-f]{32}\.jpg$/);
      expect((await t.app.inject({ url: post.featured_image })).statusCode).toBe(200);
    }
  });

  it('seeds the Chinese sample as the translation of the English one it names', async () => {
    const english = (await t.app.inject({ url: '/api/blog/posts' })).json().data.posts;
    const [chinese] = (await t.app.inject({ url: '/api/blog/posts?locale=zh-CN' })).json().data
      .posts;
    const original = english.find((post: { title: string }) => /prompts/i.test(post.title));
    const detail = (await t.app.inject({ url: `/api/blog/posts/${chinese.slug}` })).json().data;
    expect(detail.locale).toBe('zh-CN');
    expect(detail.translations).toEqual([
      { locale: 'en', slug: original.slug, title: original.title },
    ]);
  });

  it('stores the articles with their numbers filled from the catalogue and the video cost', async () => {
    const posts = (await t.app.inject({ url: '/api/blog/posts' })).json().data.posts;
    const credits = posts.find((post: { title: string }) => /credits/i.test(post.title));
    const detail = (await t.app.inject({ url: `/api/blog/posts/${credits.slug}` })).json().data;
    const text = `${detail.title} ${detail.excerpt} ${detail.content} ${detail.meta_description}`;
    expect(text).not.toContain('{{');
    expect(detail.excerpt).toContain(`Every video costs ${VIDEO_COST} credits.`);
    expect(detail.content).toContain(
      `${findPlan('lite')!.credits} credits, about ${videosFor(findPlan('lite')!.credits)} videos`,
    );
  });

  it('ships seed HTML the sanitizer keeps as written', async () => {
    for (const file of (await readdir(seedDir)).filter((f) => f.endsWith('.json'))) {
      // As the seed loader stores it: prices, counts and the video's cost filled in.
      const seed = fillCopyDeep(
        JSON.parse(await readFile(path.join(seedDir, file), 'utf8')),
        file,
      ) as {
        content: string;
        meta_description: string;
      };
      const text = (html: string) =>
        html
          .replace(/<[^>]+>/g, '')
          .replace(/\s+/g, ' ')
          .trim();
      expect(text(sanitizePostHtml(seed.content))).toBe(text(seed.content));
      expect(seed.meta_description.length).toBeLessThanOrEqual(155);
    }
  });
});
