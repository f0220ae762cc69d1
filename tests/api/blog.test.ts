import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { multipart, pngImage } from '../helpers/video.ts';

describe.each(databaseKinds)('blog on %s', (kind) => {
  let t: TestApp;
  let editor: { token: string; user: { id: string } };
  let reader: { token: string };

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { BLOG_EDITORS: 'editor@example.com' } });
    editor = await signInLocal(t.app, 'editor@example.com', 'Eddie Editor');
    reader = await signInLocal(t.app, 'reader@example.com', 'Rita Reader');
  });
  afterAll(() => t.close());

  const create = (payload: object, token = editor.token) =>
    t.app.inject({ method: 'POST', url: '/api/blog/admin/posts', headers: bearer(token), payload });
  const update = (id: string, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/blog/admin/posts/${id}`,
      headers: bearer(editor.token),
      payload,
    });
  const publicPost = (slug: string) =>
    t.app.inject({ url: `/api/blog/posts/${encodeURIComponent(slug)}` });
  const article = (title: string, extra: object = {}) => ({
    title,
    content: `<p>Body of <strong>${title}</strong></p>`,
    excerpt: '',
    featured_image: null,
    status: 'published',
    meta_title: null,
    meta_description: null,
    tags: [],
    ...extra,
  });

  describe('permissions', () => {
    const someId = '00000000-0000-4000-8000-000000000000';
    const routes: Array<[string, string, object | undefined]> = [
      ['GET', '/api/blog/admin/posts?limit=1', undefined],
      ['GET', `/api/blog/admin/posts/${someId}`, undefined],
      ['POST', '/api/blog/admin/posts', { title: 'x', content: '<p>x</p>' }],
      ['PUT', `/api/blog/admin/posts/${someId}`, { title: 'x', content: '<p>x</p>' }],
      ['DELETE', `/api/blog/admin/posts/${someId}`, undefined],
      ['POST', '/api/blog/admin/upload', undefined],
      ['POST', '/api/blog/upload-image', undefined],
      ['GET', '/api/blog/admin/build-status', undefined],
    ];
    it.each(routes)(
      '%s %s: anonymous 401, a user 403 with the spec message, an editor passes',
      async (method, url, payload) => {
        const call = (token: string | null) =>
          t.app.inject({
            method: method as 'GET',
            url,
            headers: token ? bearer(token) : {},
            ...(payload ? { payload } : {}),
          });
        expect((await call(null)).statusCode).toBe(401);
        const asUser = await call(reader.token);
        expect(asUser.statusCode).toBe(403);
        expect(asUser.json().message).toBe('You do not have blog management permissions');
        const asEditor = await call(editor.token);
        expect([200, 400, 404]).toContain(asEditor.statusCode); // past the guard
      },
    );
  });

  it('keeps drafts out of public reads and publishes with published_at set once', async () => {
    const draft = await create(article('A draft about lighthouses', { status: 'draft' }));
    expect(draft.statusCode).toBe(200);
    const post = draft.json().data;
    expect(post).toMatchObject({
      status: 'draft',
      slug: 'a-draft-about-lighthouses',
      published_at: null,
      tags: [],
    });
    expect((await publicPost(post.slug)).statusCode).toBe(404);
    expect((await publicPost(post.slug)).json().message).toBe('Article not found');

    const published = (await update(post.id, article('A draft about lighthouses'))).json().data;
    expect(published.published_at).not.toBeNull();
    const detail = (await publicPost(post.slug)).json().data;
    expect(detail).toMatchObject({
      title: 'A draft about lighthouses',
      author_name: 'Eddie Editor',
      tags: [],
      view_count: 0,
    });

    const archived = (
      await update(post.id, article('A draft about lighthouses', { status: 'archived' }))
    ).json().data;
    expect(archived.published_at).toBe(published.published_at);
    expect((await publicPost(post.slug)).statusCode).toBe(404);
  });

  it('sanitizes the body on every save', async () => {
    const res = await create(
      article('Safe body', {
        content:
          '<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(1)">link</a></p><img src=x onerror=alert(1)>',
      }),
    );
    const { content } = res.json().data;
    expect(content).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(content).toContain('Hi');
  });

  it('refuses a body with no text and names the field', async () => {
    const res = await create(article('Empty', { content: '<p><br></p>' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Content is required.');
  });

  it('makes slugs unique, and keeps a published slug until the title changes on republish (old slug redirects)', async () => {
    const a = (await create(article('Same Title'))).json().data;
    const b = (await create(article('Same Title'))).json().data;
    expect([a.slug, b.slug]).toEqual(['same-title', 'same-title-2']);

    // An edit of the body keeps the slug.
    const edited = (
      await update(a.id, article('Same Title', { content: '<p>New body</p>' }))
    ).json().data;
    expect(edited.slug).toBe('same-title');
    // A new title in a save that keeps it published: new slug, the old one redirects.
    const renamed = (await update(a.id, article('视频 创作 指南'))).json().data;
    expect(renamed.slug).toBe('shipin-chuangzuo-zhinan');
    expect(await t.app.blog.resolveSlug('same-title')).toEqual({
      published: null,
      redirectTo: { slug: 'shipin-chuangzuo-zhinan', locale: 'en' },
    });
    // A new post may not take the redirected slug.
    const c = (await create(article('Same Title'))).json().data;
    expect(c.slug).toBe('same-title-3');
  });

  it('lists published posts 12 a page, newest first, excerpts cut at 100 characters, with an ETag', async () => {
    const fresh = await createTestApp(kind, { env: { BLOG_EDITORS: 'ed2@example.com' } });
    try {
      const ed = await signInLocal(fresh.app, 'ed2@example.com', 'Ed');
      for (let i = 1; i <= 13; i++) {
        await fresh.app.inject({
          method: 'POST',
          url: '/api/blog/admin/posts',
          headers: bearer(ed.token),
          payload: article(`Post ${i}`, { excerpt: `${'x'.repeat(150)} ${i}` }),
        });
      }
      const first = await fresh.app.inject({ url: '/api/blog/posts?page=1&limit=12' });
      const body = first.json().data;
      expect(body.pagination).toEqual({ page: 1, pages: 2, total: 13, limit: 12 });
      expect(body.posts).toHaveLength(12);
      expect(body.posts[0].title).toBe('Post 13');
      expect(body.posts[0].excerpt.length).toBeLessThanOrEqual(100);
      expect(body.posts[0]).not.toHaveProperty('content');
      const second = (await fresh.app.inject({ url: '/api/blog/posts?page=2' })).json().data;
      expect(second.posts.map((p: { title: string }) => p.title)).toEqual(['Post 1']);

      const etag = first.headers.etag as string;
      expect(etag).toBeTruthy();
      const again = await fresh.app.inject({
        url: '/api/blog/posts?page=1&limit=12',
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      // Publishing invalidates the cache and the ETag.
      await fresh.app.inject({
        method: 'POST',
        url: '/api/blog/admin/posts',
        headers: bearer(ed.token),
        payload: article('Post 14'),
      });
      const changed = await fresh.app.inject({
        url: '/api/blog/posts?page=1&limit=12',
        headers: { 'if-none-match': etag },
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data.posts[0].title).toBe('Post 14');
    } finally {
      await fresh.close();
    }
  });

  it('counts views', async () => {
    const post = (await create(article('Counted'))).json().data;
    const a = await t.app.inject({ method: 'POST', url: `/api/blog/posts/${post.slug}/view` });
    const b = await t.app.inject({ method: 'POST', url: `/api/blog/posts/${post.slug}/view` });
    expect([a.json().data.view_count, b.json().data.view_count]).toEqual([1, 2]);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/blog/posts/no-such-post/view' })).statusCode,
    ).toBe(404);
  });

  it('answers a counted view in the next read of the post and the list, with a new ETag', async () => {
    const post = (await create(article('Read twice'))).json().data;
    const detail = () => t.app.inject({ url: `/api/blog/posts/${post.slug}` });
    const list = () => t.app.inject({ url: '/api/blog/posts?page=1&limit=50' });
    const listed = (res: Awaited<ReturnType<typeof list>>) =>
      (res.json().data.posts as Array<{ slug: string; view_count: number }>).find(
        (p) => p.slug === post.slug,
      )?.view_count;
    // Twice each: the second answer is the one kept from the first serialization.
    await detail();
    const before = await detail();
    await list();
    const listBefore = await list();
    expect(before.json().data.view_count).toBe(0);
    expect(listed(listBefore)).toBe(0);
    await t.app.inject({ method: 'POST', url: `/api/blog/posts/${post.slug}/view` });
    const after = await detail();
    const listAfter = await list();
    expect(after.json().data.view_count).toBe(1);
    expect(listed(listAfter)).toBe(1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(listAfter.headers.etag).not.toBe(listBefore.headers.etag);
    // The old ETag no longer revalidates.
    const stale = await t.app.inject({
      url: `/api/blog/posts/${post.slug}`,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(stale.statusCode).toBe(200);
  });

  it('deletes a post', async () => {
    const post = (await create(article('Short lived'))).json().data;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/blog/admin/posts/${post.id}`,
      headers: bearer(editor.token),
    });
    expect(res.statusCode).toBe(200);
    expect((await publicPost(post.slug)).statusCode).toBe(404);
    const list = (
      await t.app.inject({ url: '/api/blog/admin/posts', headers: bearer(editor.token) })
    ).json().data;
    expect(list.find((p: { id: string }) => p.id === post.id)).toBeUndefined();
  });

  describe('uploads', () => {
    const upload = (url: string, file: { filename: string; type: string; data: Buffer }) => {
      const body = multipart({}, { name: 'image', ...file });
      return t.app.inject({
        method: 'POST',
        url,
        headers: { ...body.headers, ...bearer(editor.token) },
        payload: body.payload,
      });
    };

    it('refuses a file with an image name that is not an image', async () => {
      const res = await upload('/api/blog/upload-image', {
        filename: 'cat.png',
        type: 'image/png',
        data: Buffer.from('<html><script>alert(1)</script></html>'),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please select a valid image file (JPEG, PNG, GIF, WebP)');
    });

    it('refuses 11 MB with 413', async () => {
      const res = await upload('/api/blog/admin/upload', {
        filename: 'big.png',
        type: 'image/png',
        data: Buffer.concat([await pngImage(), Buffer.alloc(11 * 1024 * 1024)]),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toMatch(/10MB/);
    });

    it('re-encodes a GIF/JS polyglot so the script part is gone', async () => {
      const gif = await sharp({
        create: { width: 8, height: 8, channels: 3, background: '#8a7cff' },
      })
        .gif()
        .toBuffer();
      const polyglot = Buffer.concat([
        gif,
        Buffer.from('*/=alert(document.domain);/*<script>alert(1)</script>'),
      ]);
      const res = await upload('/api/blog/upload-image', {
        filename: 'x.gif',
        type: 'image/gif',
        data: polyglot,
      });
      expect(res.statusCode).toBe(200);
      const stored = await readFile(path.join(t.dataDir, res.json().imageUrl));
      expect(stored.toString('latin1')).not.toContain('alert');
      expect(stored.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    });

    it('accepts a PNG, re-encoded without EXIF, answering imageUrl (inline) and data.url (featured)', async () => {
      const withExif = await sharp({
        create: { width: 40, height: 30, channels: 3, background: '#123456' },
      })
        .withExif({ IFD0: { Copyright: 'secret-camera-owner', Artist: 'Somebody' } })
        .png()
        .toBuffer();
      expect(withExif.toString('latin1')).toContain('secret-camera-owner');
      const inline = await upload('/api/blog/upload-image', {
        filename: 'a.png',
        type: 'image/png',
        data: withExif,
      });
      expect(inline.statusCode).toBe(200);
      expect(inline.json()).toMatchObject({
        success: true,
        imageUrl: expect.stringMatching(/^\/uploads\/blog\/[0-9a-f]{32}\.png$/),
        message: expect.any(String),
      });
      const stored = await readFile(path.join(t.dataDir, inline.json().imageUrl));
      expect(stored.toString('latin1')).not.toContain('secret-camera-owner');
      expect((await sharp(stored).metadata()).exif).toBeUndefined();
      const served = await t.app.inject({ url: inline.json().imageUrl });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);

      const featured = await upload('/api/blog/admin/upload', {
        filename: 'b.png',
        type: 'image/png',
        data: await pngImage(),
      });
      expect(featured.json()).toMatchObject({
        success: true,
        data: { url: expect.stringMatching(/^\/uploads\/blog\//) },
      });
    });
  });
});
