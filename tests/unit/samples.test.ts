import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collectSampleClips,
  ensureSampleClips,
  openSampleLibrary,
  type SampleRenderRequest,
} from '../../server/domains/site-build/samples.ts';
import Fastify from 'fastify';
import { createMediaStore } from '../../server/core/media-store/index.ts';
import { samplesRoutes } from '../../server/domains/site-build/samples-routes.ts';
import { testConfig } from '../helpers/app.ts';
import { galleryEntry } from '../helpers/content.ts';
import { startS3Server } from '../helpers/s3.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'samples-test-'));
  await mkdir(path.join(root, 'content'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const writeJson = async (rel: string, data: unknown) => {
  const file = path.join(root, 'content', rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(data));
};

const gallery = [
  galleryEntry({ prompt: 'A paper fox trots through folded leaves' }),
  {
    id: 'creator-post',
    creator: '@someone',
    videoUrl: 'https://www.tiktok.com/@someone/video/7301234567890123456',
    embedUrl: 'https://www.tiktok.com/embed/v2/7301234567890123456',
    category: 'Other',
    title: 'An operator embed',
  },
];

describe('collectSampleClips', () => {
  it('collects the gallery, landing and effects samples that we render', async () => {
    await writeJson('gallery.json', gallery);
    await writeJson('landings/asmr-video.json', {
      samples: [{ id: 'asmr-soap', prompt: 'Slicing a bar of lavender soap', title: 'Soap' }],
    });
    await writeJson('landings/ai-french-kissing.json', { title: 'no samples here' });
    await writeJson('effects.json', {
      cards: [
        {
          title: 'Snow globe',
          sample: { id: 'effect-snow', prompt: 'A couple inside a snow globe' },
        },
        { title: 'No sample yet' },
      ],
    });

    const clips = await collectSampleClips(root);
    expect(clips.map(({ id, prompt }) => ({ id, prompt }))).toEqual([
      { id: 'paper-fox', prompt: 'A paper fox trots through folded leaves' },
      { id: 'asmr-soap', prompt: 'Slicing a bar of lavender soap' },
      { id: 'effect-snow', prompt: 'A couple inside a snow globe' },
    ]);
    expect(clips.map((c) => c.title)).toEqual(['Paper fox', 'Soap', 'Snow globe']);
  });

  it('tolerates missing landing and effects files', async () => {
    await writeJson('gallery.json', gallery);
    expect((await collectSampleClips(root)).map((c) => c.id)).toEqual(['paper-fox']);
  });

  it('rejects an id declared twice, naming both places', async () => {
    await writeJson('gallery.json', gallery);
    await writeJson('effects.json', {
      cards: [{ title: 'Fox', sample: { id: 'paper-fox', prompt: 'Another fox' } }],
    });
    await expect(collectSampleClips(root)).rejects.toThrow(
      /"paper-fox" is declared twice \(content\/gallery.json entry 0 and content\/effects.json card 0\)/,
    );
  });

  it('rejects an id that cannot be a file name', async () => {
    await writeJson('landings/x.json', { samples: [{ id: '../evil', prompt: 'x' }] });
    await expect(collectSampleClips(root)).rejects.toThrow(/sample id/);
  });
});

/** A stand-in renderer that writes small files and counts its calls. */
const countingRenderer = () => {
  const calls: string[] = [];
  const render = async (req: SampleRenderRequest) => {
    calls.push(req.prompt);
    await mkdir(path.dirname(req.outputPath), { recursive: true });
    await writeFile(req.outputPath, `video:${req.prompt}`);
    await writeFile(req.posterPath, `poster:${req.prompt}`);
  };
  return { calls, render };
};

describe('ensureSampleClips', () => {
  it('renders each clip once, then reuses the cache', async () => {
    await writeJson('gallery.json', gallery);
    await writeJson('effects.json', {
      cards: [{ title: 'Snow', sample: { id: 'effect-snow', prompt: 'A snow globe' } }],
    });
    const cacheDir = path.join(root, 'cache');
    const { calls, render } = countingRenderer();

    const first = await ensureSampleClips({ projectRoot: root, cacheDir, render });
    expect(calls.sort()).toEqual(['A paper fox trots through folded leaves', 'A snow globe']);
    const cachedMtime = (await stat(first[0]!.video)).mtimeMs;

    const again = await ensureSampleClips({ projectRoot: root, cacheDir, render });
    expect(calls).toHaveLength(2);
    expect((await stat(first[0]!.video)).mtimeMs).toBe(cachedMtime);

    const byId = new Map(again.map((clip) => [clip.id, clip]));
    expect(await readFile(byId.get('paper-fox')!.video, 'utf8')).toBe(
      'video:A paper fox trots through folded leaves',
    );
    expect(await readFile(byId.get('effect-snow')!.poster, 'utf8')).toBe('poster:A snow globe');
  });

  it('renders again only the clip whose prompt changed', async () => {
    await writeJson('gallery.json', gallery);
    const cacheDir = path.join(root, 'cache');
    const { calls, render } = countingRenderer();
    await ensureSampleClips({ projectRoot: root, cacheDir, render });
    await writeJson('gallery.json', [{ ...gallery[0], prompt: 'A paper fox in the snow' }]);
    await ensureSampleClips({ projectRoot: root, cacheDir, render });
    expect(calls).toEqual(['A paper fox trots through folded leaves', 'A paper fox in the snow']);
  });

  it('fails with the clip named when a render fails, leaving nothing half-made in the cache', async () => {
    await writeJson('gallery.json', gallery);
    const cacheDir = path.join(root, 'cache');
    const render = async (req: SampleRenderRequest) => {
      await mkdir(path.dirname(req.outputPath), { recursive: true });
      await writeFile(req.outputPath, 'partial');
      throw new Error('ffmpeg exited with 1');
    };
    await expect(ensureSampleClips({ projectRoot: root, cacheDir, render })).rejects.toThrow(
      /"paper-fox" \(content\/gallery.json entry 0\) failed/,
    );
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('makes a real clip and poster with the local renderer by default', async () => {
    await writeJson('gallery.json', [gallery[0]]);
    const cacheDir = path.join(root, 'cache');
    const started = Date.now();
    const [clip] = await ensureSampleClips({ projectRoot: root, cacheDir });
    const firstMs = Date.now() - started;
    const video = await readFile(clip!.video);
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const poster = await readFile(clip!.poster);
    expect([...poster.subarray(0, 2)]).toEqual([0xff, 0xd8]);

    const again = Date.now();
    await ensureSampleClips({ projectRoot: root, cacheDir });
    // A cache hit only stats files; a render takes over a second.
    expect(Date.now() - again).toBeLessThan(Math.min(500, firstMs / 2));
  });
});

describe('openSampleLibrary', () => {
  it('answers pending until a background render lands, then ready; one render per prompt', async () => {
    await writeJson('gallery.json', gallery);
    await writeJson('effects.json', {
      cards: [
        { title: 'Fox again', sample: { id: 'effect-fox', prompt: gallery[0]!.prompt } },
        { title: 'Broken', sample: { id: 'effect-broken', prompt: 'FAIL this one' } },
      ],
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const lines: string[] = [];
    const library = await openSampleLibrary({
      projectRoot: root,
      cacheDir: path.join(root, 'cache'),
      render: async (req) => {
        calls.push(req.prompt);
        expect(req.lowPriority).toBe(true);
        await gate;
        if (req.prompt.startsWith('FAIL')) throw new Error('ffmpeg exited with 1');
        await mkdir(path.dirname(req.outputPath), { recursive: true });
        await writeFile(req.outputPath, 'video');
        await writeFile(req.posterPath, 'poster');
      },
      log: {
        info: (_obj, msg) => lines.push(msg ?? ''),
        error: (_obj, msg) => lines.push(msg ?? ''),
      },
    });
    expect(await library.lookup('paper-fox')).toMatchObject({ ready: false });
    expect(await library.lookup('no-such-clip')).toBeNull();

    const run = library.renderMissing({ lowPriority: true });
    expect(await library.lookup('effect-fox')).toMatchObject({ ready: false });
    release();
    // A failed render is logged and skipped: the other clips still land.
    expect(await run).toBe(1);
    expect(calls).toEqual([gallery[0]!.prompt, 'FAIL this one']);
    expect(await library.lookup('paper-fox')).toMatchObject({ ready: true });
    expect(await library.lookup('effect-fox')).toMatchObject({ ready: true });
    expect(await library.lookup('effect-broken')).toMatchObject({ ready: false });
    expect(library.readyCount()).toBe(2);
    expect(lines).toEqual([
      'rendering sample clips 0/2',
      'rendering sample clips 1/2',
      'sample clip render failed',
      'rendering sample clips 2/2',
      'sample clips ready',
    ]);
  });

  it('sees a clip another process rendered into the shared cache', async () => {
    await writeJson('gallery.json', gallery);
    const cacheDir = path.join(root, 'cache');
    const server = await openSampleLibrary({ projectRoot: root, cacheDir });
    expect(await server.lookup('paper-fox')).toMatchObject({ ready: false });
    await ensureSampleClips({ projectRoot: root, cacheDir, render: countingRenderer().render });
    expect(await server.lookup('paper-fox')).toMatchObject({ ready: true });
  });
});

describe('sample clips shared through the bucket (several machines)', () => {
  it('renders a clip on one machine only: another with its own cache finds it in the store and serves it from there', async () => {
    const s3 = await startS3Server();
    const store = createMediaStore(testConfig(root, s3.env));
    try {
      await writeJson('gallery.json', gallery);
      const first = countingRenderer();
      const a = await openSampleLibrary({
        projectRoot: root,
        cacheDir: path.join(root, 'cache-a'),
        render: first.render,
        store,
      });
      expect(await a.renderMissing()).toBe(1);
      const keys: string[] = [];
      for await (const key of store.list('samples/')) keys.push(key);
      expect(keys).toHaveLength(2);
      expect(keys.some((k) => k.endsWith('/clip.mp4'))).toBe(true);

      const second = countingRenderer();
      const b = await openSampleLibrary({
        projectRoot: root,
        cacheDir: path.join(root, 'cache-b'),
        render: second.render,
        store,
      });
      const found = await b.lookup('paper-fox');
      expect(found).toMatchObject({ ready: true });
      expect(found?.storeKeys?.video).toBe(keys.find((k) => k.endsWith('/clip.mp4')));
      await b.renderMissing();
      expect(second.calls).toEqual([]);

      // The machine without the files sends the visitor to the bucket.
      const app = Fastify();
      await app.register(samplesRoutes, { samples: b, store });
      const res = await app.inject({ url: '/samples/paper-fox.mp4' });
      expect(res.statusCode).toBe(302);
      const video = await fetch(res.headers.location as string);
      expect(await video.text()).toBe(`video:${gallery[0]!.prompt}`);
      await app.close();
    } finally {
      await store.close();
      await s3.close();
    }
  });
});
