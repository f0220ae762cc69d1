/**
 * `npm start` as a newcomer meets it: the server answers at once, its first site build runs in
 * the background from a data directory outside the checkout (started before the app: it needs no
 * data), the site's pages go live before the blog's, and pages never wait for the sample clips,
 * which render afterwards (here held back on purpose until the checks are done).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import gallery from '../../content/gallery.json' with { type: 'json' };
import { loadConfig } from '../../server/config.ts';
import { readManifest, siteDirs } from '../../server/domains/site-build/release.ts';
import type { SampleRenderRequest } from '../../server/domains/site-build/samples.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { captureLogEntries } from '../helpers/logs.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('npm start on a fresh data directory outside the checkout', () => {
  let dataDir: string;
  let cacheDir: string;
  let server: RunningServer;
  let base: string;
  const { stream: logStream, lines } = captureLogEntries<{
    msg: string;
    kind?: string;
    release?: string;
  }>();
  const rendered: string[] = [];
  let releaseRenders!: () => void;
  const rendersHeld = new Promise<void>((resolve) => (releaseRenders = resolve));
  const startConfig = () =>
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      SAMPLE_CACHE_DIR: cacheDir,
      VIDEO_WORKER: 'off',
      LOG_FORMAT: 'json',
    });

  beforeAll(async () => {
    // A sibling whose path starts with the checkout's: Astro took such an outDir for one inside
    // the project and wrote its prerender bundle where no node_modules resolves its imports.
    dataDir = await mkdtemp(`${root}-data-`);
    cacheDir = await mkdtemp(path.join(tmpdir(), 'veo3-samples-'));
    const sampleRenderer = async (req: SampleRenderRequest) => {
      await rendersHeld;
      await mkdir(path.dirname(req.outputPath), { recursive: true });
      await writeFile(req.outputPath, Buffer.alloc(1000, 7));
      await writeFile(req.posterPath, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
      rendered.push(req.prompt);
    };
    server = await startServer(startConfig(), { sampleRenderer, logStream, scheduler: false });
    base = `http://127.0.0.1:${server.port}`;
  }, 60_000);

  afterAll(async () => {
    releaseRenders();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('says the mode and the data directory first, then where it listens', () => {
    const messages = lines.map((line) => line.msg);
    expect(messages[0]).toBe(
      'mode: development, local adapters for database, sign-in, payments, video, mail, media',
    );
    expect(messages[1]).toBe(`data directory: ${dataDir}`);
    expect(messages).toContain(
      `listening on http://127.0.0.1:${server.port} (public URL http://localhost:0)`,
    );
  });

  it('answers the API before the site is built, then / once the first build is live', async () => {
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    // The build takes seconds (astro runs in a child process): meanwhile a page reloads itself.
    const building = await fetch(`${base}/pricing`);
    expect(building.status).toBe(503);
    expect(building.headers.get('retry-after')).toBe('2');
    expect(await building.text()).toContain('<meta http-equiv="refresh" content="2">');
    await vi.waitFor(async () => expect((await fetch(`${base}/`)).status).toBe(200), {
      timeout: 120_000,
      interval: 200,
    });
    expect(lines.map((line) => line.msg)).toContain('site release live');
    // No clip has rendered: every page works without them.
    expect(rendered).toEqual([]);
    await vi.waitFor(
      () => expect(lines.map((line) => line.msg)).toContain('site ready at http://localhost:0'),
      {
        timeout: 120_000,
        interval: 200,
      },
    );
    for (const page of [
      '/pricing',
      '/video-effects',
      '/blog',
      '/rss.xml',
      `/embed/${gallery[0]!.id}`,
    ]) {
      expect((await fetch(`${base}${page}`)).status, page).toBe(200);
    }
  }, 250_000);

  it('went live with the site alone first (built ahead of the app), then with the blog pages', async () => {
    const releases = lines.filter((line) => line.msg === 'site release live');
    expect(releases.map((line) => line.kind)).toEqual(['site', 'blog']);
    expect(lines.map((line) => line.msg)).toContain('the site part was built ahead of the app');
    const [first, second] = await Promise.all(
      releases.map((line) => readManifest(path.join(siteDirs(dataDir).releases, line.release!))),
    );
    // The first: the site's pages, the article shell among them, and none of the blog's.
    expect(first!.partial).toBe(true);
    expect(first!.files).toEqual(expect.arrayContaining(['index.html', 'blog/article-shell.html']));
    const isArticle = (file: string) =>
      /^(zh\/)?blog\/[^/]+\.html$/.test(file) && !file.endsWith('/article-shell.html');
    const isBlogPage = (file: string) =>
      isArticle(file) || /^(zh\/)?(blog\.html|rss\.xml|blog\/page\/)|^sitemap/.test(file);
    expect(first!.files.filter(isBlogPage)).toEqual([]);
    // The second: the same site files, the sample articles, both lists and feeds, the sitemap.
    expect(second!.partial).toBeUndefined();
    expect(second!.files).toEqual(expect.arrayContaining(first!.files));
    expect(second!.files).toEqual(
      expect.arrayContaining([
        'blog.html',
        'zh/blog.html',
        'rss.xml',
        'zh/rss.xml',
        'sitemap-0.xml',
      ]),
    );
    expect(second!.files.filter(isArticle).length).toBeGreaterThan(0);
  });

  it('shows a pending clip as a placeholder poster, never a broken player', async () => {
    const id = gallery[0]!.id;
    const poster = await fetch(`${base}/samples/${id}.jpg`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect(poster.headers.get('cache-control')).toBe('no-store');
    const clip = await fetch(`${base}/samples/${id}.mp4`);
    expect(clip.status).toBe(503);
    expect(clip.headers.get('retry-after')).toBe('30');
    expect(await clip.text()).toMatch(/still being prepared/);
    // The embed page carries the note its player gives way to.
    const embed = await (await fetch(`${base}/embed/${id}`)).text();
    expect(embed).toMatch(/<video[^>]*data-sample-video/);
    expect(embed).toContain('data-sample-pending');
    expect((await fetch(`${base}/samples/no-such-clip.mp4`)).status).toBe(404);
  });

  it('renders the clips in the background and logs its progress; a ready clip seeks', async () => {
    releaseRenders();
    await vi.waitFor(() => expect(lines.map((line) => line.msg)).toContain('sample clips ready'), {
      timeout: 30_000,
      interval: 100,
    });
    const progress = lines.map((line) => line.msg).filter((m) => m.startsWith('rendering sample'));
    const total = Number(/\/(\d+)$/.exec(progress[0]!)![1]);
    expect(total).toBeGreaterThan(10);
    expect(progress).toHaveLength(total + 1);
    expect(progress.at(-1)).toBe(`rendering sample clips ${total}/${total}`);

    const id = gallery[0]!.id;
    const clip = await fetch(`${base}/samples/${id}.mp4`);
    expect(clip.status).toBe(200);
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    expect((await clip.arrayBuffer()).byteLength).toBe(1000);
    const range = await fetch(`${base}/samples/${id}.mp4`, { headers: { range: 'bytes=10-19' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 10-19/1000');
    const poster = await fetch(`${base}/samples/${id}.jpg`);
    expect(poster.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('a restart whose site is stale serves the previous release while the next one builds', async () => {
    const before = lines.filter((line) => line.msg === 'site release live').length;
    const article = (await (await fetch(`${base}/api/blog/posts`)).json()).data.posts[0].slug;
    await server.stop();
    // A build setting changed (a PUBLIC_* variable): the live release is stale.
    process.env.PUBLIC_STARTUP_TEST = 'restarted';
    try {
      server = await startServer(startConfig(), { logStream, scheduler: false });
      base = `http://127.0.0.1:${server.port}`;
      // Listening at once, with the previous release's pages, while the rebuild runs.
      for (const page of ['/', `/blog/${article}`]) {
        const res = await fetch(`${base}${page}`);
        expect(res.status, page).toBe(200);
        expect(await res.text(), page).not.toContain('http-equiv="refresh"');
      }
      expect(lines.filter((line) => line.msg === 'site release live')).toHaveLength(before);
      await vi.waitFor(
        () =>
          expect(lines.filter((line) => line.msg === 'site release live')).toHaveLength(before + 1),
        { timeout: 120_000, interval: 200 },
      );
      expect((await fetch(`${base}/blog/${article}`)).status).toBe(200);
    } finally {
      delete process.env.PUBLIC_STARTUP_TEST;
    }
  }, 150_000);
});
