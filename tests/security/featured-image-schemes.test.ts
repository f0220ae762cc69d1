/**
 * Finding 12 (issue 16), `featured_image` schemes: the field is an image address the public
 * pages and feeds put in `src` and `og:image`, so it takes only an http(s) address or an image
 * uploaded here (what POST /api/blog/admin/upload answers as data.url), never `javascript:`,
 * `data:` or any other scheme, on every way in (the blog API and the data API).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { multipart, pngImage } from '../helpers/video.ts';

const REFUSED = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:image/png;base64,iVBORw0KGgo=',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://files.example.com/a.png',
  '//evil.example/a.png',
  'https://',
  'https://user:pass@example.com/a.png',
  'https://example.com/a b.png',
  '/uploads/blog/../../config.json',
  '/uploads/other/a.png',
  '/etc/passwd',
  'a.png',
];

const ACCEPTED = [
  'https://cdn.example.com/images/cover.png',
  'http://example.com/cover.jpg?size=large#top',
  'HTTPS://EXAMPLE.COM/Cover.PNG',
];

describe.each(databaseKinds)('featured_image schemes on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let draftId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { BLOG_EDITORS: 'editor@example.com' } });
    token = (await signInLocal(t.app, 'editor@example.com', 'Eddie Editor')).token;
    const draft = await save('POST', '/api/blog/admin/posts', null);
    draftId = draft.json().data.id;
  });
  afterAll(() => t.close());

  function save(method: 'POST' | 'PUT', url: string, image: string | null) {
    return t.app.inject({
      method,
      url,
      headers: bearer(token),
      payload: { title: 'Cover test', content: '<p>Body</p>', featured_image: image },
    });
  }

  it.each(REFUSED)('refuses %j on create and update with a 400 naming the field', async (image) => {
    for (const res of [
      await save('POST', '/api/blog/admin/posts', image),
      await save('PUT', `/api/blog/admin/posts/${draftId}`, image),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'INVALID_FEATURED_IMAGE' });
      expect(res.json().message).toMatch(/^'featured_image' .*\.$/);
    }
    const stored = await t.app.inject({
      url: `/api/blog/admin/posts/${draftId}`,
      headers: bearer(token),
    });
    expect(stored.json().data.featured_image).toBeNull();
  });

  it('refuses them through the data API too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/db/posts',
      headers: bearer(token),
      payload: {
        title: 'Via data API',
        content: '<p>x</p>',
        featured_image: 'javascript:alert(1)',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/featured_image/);
  });

  it.each(ACCEPTED)('keeps the http(s) address %j', async (image) => {
    const res = await save('PUT', `/api/blog/admin/posts/${draftId}`, image);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.featured_image).toBe(image);
  });

  it('keeps the address of an uploaded image, as the editor sends it', async () => {
    const body = multipart(
      {},
      { name: 'image', filename: 'cover.png', type: 'image/png', data: await pngImage() },
    );
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/blog/admin/upload',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    expect(upload.statusCode).toBe(200);
    const url = upload.json().data.url as string;
    const res = await save('PUT', `/api/blog/admin/posts/${draftId}`, url);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.featured_image).toBe(url);
    expect((await save('PUT', `/api/blog/admin/posts/${draftId}`, null)).statusCode).toBe(200);
  });
});
