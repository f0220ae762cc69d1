/**
 * Blog posts in two languages (issue 21): each post has a language, chosen by the editor; each
 * language's public list holds its own posts; a post may translate an original in the other
 * language (one per language, never a translation of a translation), and each published page
 * names its published translations. Article addresses follow the language (/blog, /zh/blog).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogArticleFallback } from '../../server/domains/site-build/plugin.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('blog languages on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { BLOG_EDITORS: 'editor@example.com' } });
    token = (await signInLocal(t.app, 'editor@example.com', 'Eddie Editor')).token;
  });
  afterAll(() => t.close());

  const save = (payload: object, id?: string) =>
    t.app.inject({
      method: id ? 'PUT' : 'POST',
      url: id ? `/api/blog/admin/posts/${id}` : '/api/blog/admin/posts',
      headers: bearer(token),
      payload,
    });
  const article = (title: string, extra: object = {}) => ({
    title,
    content: `<p>${title}</p>`,
    status: 'published',
    ...extra,
  });
  const created = async (title: string, extra: object = {}) => {
    const res = await save(article(title, extra));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; slug: string; locale: string };
  };
  const list = async (query = '') =>
    (await t.app.inject({ url: `/api/blog/posts${query}` })).json().data.posts as {
      slug: string;
      locale: string;
    }[];
  const detail = async (slug: string) =>
    (await t.app.inject({ url: `/api/blog/posts/${encodeURIComponent(slug)}` })).json().data;

  it('a post is English unless the editor chooses; each language lists its own posts', async () => {
    const en = await created('Lighting tips for short clips');
    expect(en.locale).toBe('en');
    const zh = await created('短视频灯光技巧', { locale: 'zh-CN', translation_of: en.id });
    expect(zh).toMatchObject({ locale: 'zh-CN', translation_of: en.id });

    const english = await list();
    expect(english.map((p) => p.slug)).toContain(en.slug);
    expect(english.every((p) => p.locale === 'en')).toBe(true);
    const chinese = await list('?locale=zh-CN');
    expect(chinese.map((p) => p.slug)).toEqual([zh.slug]);
    const unknown = await t.app.inject({ url: '/api/blog/posts?locale=fr' });
    expect(unknown.statusCode).toBe(400);
  });

  it('each published article names its published translations; a draft is not named', async () => {
    const en = await created('Sound design for AI video');
    const zh = await created('AI 视频的声音设计', { locale: 'zh-CN', translation_of: en.id });
    expect((await detail(en.slug)).translations).toEqual([
      { locale: 'zh-CN', slug: zh.slug, title: 'AI 视频的声音设计' },
    ]);
    expect((await detail(zh.slug)).translations).toEqual([
      { locale: 'en', slug: en.slug, title: 'Sound design for AI video' },
    ]);
    await save(article('AI 视频的声音设计', { status: 'draft' }), zh.id);
    expect((await detail(en.slug)).translations).toEqual([]);
  });

  it('refuses impossible links with a message that says what to do', async () => {
    const en = await created('Camera moves that work');
    const zh = await created('有效的镜头运动', { locale: 'zh-CN', translation_of: en.id });
    const other = await created('Another English post');
    const refused = async (payload: object, id: string | undefined, status: number) => {
      const res = await save(payload, id);
      expect(res.statusCode, res.body).toBe(status);
      return res.json().message as string;
    };
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      await refused(article('自己', { locale: 'zh-CN', translation_of: missing }), undefined, 400),
    ).toMatch(/does not exist.*Choose another article or none/);
    expect(await refused(article('Self', { translation_of: other.id }), other.id, 400)).toMatch(
      /cannot be a translation of itself/,
    );
    expect(await refused(article('Same', { translation_of: en.id }), undefined, 400)).toMatch(
      /must be in another language/,
    );
    expect(await refused(article('Of zh', { translation_of: zh.id }), undefined, 400)).toMatch(
      /itself a translation\. Choose the original/,
    );
    expect(
      await refused(article('又一个', { locale: 'zh-CN', translation_of: en.id }), undefined, 409),
    ).toBe(
      'That article already has a translation in this language. Edit that translation, or unlink it first.',
    );
    // The original may not move into its translation's language.
    expect(
      await refused(article('Camera moves that work', { locale: 'zh-CN' }), en.id, 409),
    ).toMatch(/already has a translation in the language you chose/);
    // An original with translations may not become a translation.
    const zhOther = await created('另一篇', { locale: 'zh-CN' });
    expect(
      await refused(article('Camera moves that work', { translation_of: zhOther.id }), en.id, 400),
    ).toMatch(/has translations of its own/);
    expect(await refused(article('Bad', { locale: 'fr' }), undefined, 400)).toMatch(/locale/);
    // Nothing was half-written: the original is as it was.
    expect(await detail(en.slug)).toMatchObject({ locale: 'en', title: 'Camera moves that work' });
  });

  it('two editors translating one article into one language at once: one wins, one is told', async () => {
    const en = await created('Prompt structure basics');
    const results = await Promise.all(
      ['提示结构基础', '提示词结构入门'].map((title) =>
        save(article(title, { locale: 'zh-CN', translation_of: en.id })),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await detail(en.slug)).translations).toHaveLength(1);
  });

  it('unlinking and deleting: the other page stops naming it', async () => {
    const en = await created('Color grading in a prompt');
    const zh = await created('提示词中的调色', { locale: 'zh-CN', translation_of: en.id });
    await save(article('提示词中的调色', { translation_of: null }), zh.id);
    expect((await detail(en.slug)).translations).toEqual([]);
    expect((await detail(zh.slug)).locale).toBe('zh-CN'); // unchanged when left out
    await save(article('提示词中的调色', { translation_of: en.id }), zh.id);
    expect((await detail(en.slug)).translations).toHaveLength(1);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/blog/admin/posts/${en.id}`,
      headers: bearer(token),
    });
    expect((await detail(zh.slug)).translations).toEqual([]);
  });

  it("the build's snapshot and page digests carry language and translations", async () => {
    const en = await created('Dialogue in eight seconds');
    const zh = await created('八秒钟的对白', { locale: 'zh-CN', translation_of: en.id });
    const snapshot = await t.app.blog.snapshot('list');
    const entry = snapshot.posts.find((p) => p.slug === en.slug)!;
    expect(entry.locale).toBe('en');
    expect(entry.translations).toEqual([{ locale: 'zh-CN', slug: zh.slug, title: '八秒钟的对白' }]);
    const [whole] = await t.app.blog.pagePosts([zh.slug]);
    expect(whole!.translations).toEqual([
      { locale: 'en', slug: en.slug, title: 'Dialogue in eight seconds' },
    ]);

    const before = (await t.app.blog.pageDigests()).get(en.slug)!;
    expect(before.locale).toBe('en');
    expect((await t.app.blog.pageDigests()).get(zh.slug)!.locale).toBe('zh-CN');
    // Retitling the translation changes the link on the English page: it must render again.
    await save(article('八秒对白', { locale: 'zh-CN' }), zh.id);
    expect((await t.app.blog.pageDigests()).get(en.slug)!.digest).not.toBe(before.digest);
  });

  it('the data API writes through the same rules and reads the language columns', async () => {
    const en = await created('Data API original');
    const db = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: bearer(token), payload });
    const same = await db(
      'POST',
      '/api/db/posts',
      article('Same again', { translation_of: en.id }),
    );
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toMatch(/must be in another language/);
    const zh = await db(
      'POST',
      '/api/db/posts',
      article('数据接口的译文', { locale: 'zh-CN', translation_of: en.id }),
    );
    expect(zh.statusCode, zh.body).toBe(200);
    const [row] = zh.json().data;
    expect(row).toMatchObject({ locale: 'zh-CN', translation_of: en.id });
    // An update that leaves the language out keeps it.
    const retitled = await db('PUT', '/api/db/posts', {
      data: { title: '数据接口的新译文' },
      where: { id: row.id },
    });
    expect(retitled.statusCode, retitled.body).toBe(200);
    expect((await detail(en.slug)).translations).toEqual([
      expect.objectContaining({ locale: 'zh-CN', title: '数据接口的新译文' }),
    ]);
  });

  it("an article's address in the other language redirects; old slugs go to the right one", async () => {
    const fallback = blogArticleFallback(t.app.blog);
    const en = await created('Addresses per language');
    const zh = await created('按语言的地址', { locale: 'zh-CN' });
    expect(await fallback(`/blog/${en.slug}`)).toEqual({
      file: 'blog/article-shell.html',
      status: 200,
    });
    expect(await fallback(`/zh/blog/${zh.slug}`)).toEqual({
      file: 'zh/blog/article-shell.html',
      status: 200,
    });
    expect(await fallback(`/zh/blog/${en.slug}`)).toEqual({ redirect: `/blog/${en.slug}` });
    expect(await fallback(`/blog/${zh.slug}`)).toEqual({
      redirect: `/zh/blog/${encodeURIComponent(zh.slug)}`,
    });
    expect(await fallback('/zh/blog/no-such-post')).toEqual({
      file: 'zh/blog/article-shell.html',
      status: 404,
    });
    // Retitled on republish: the old slug redirects to the new address, in its language.
    const renamed = (await save(article('视频 创作 指南', { locale: 'zh-CN' }), zh.id)).json().data;
    expect(renamed.slug).not.toBe(zh.slug);
    expect(await fallback(`/blog/${zh.slug}`)).toEqual({
      redirect: `/zh/blog/${encodeURIComponent(renamed.slug)}`,
    });
  });
});
