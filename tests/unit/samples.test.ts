import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collectSampleClips,
  ensureSampleClips,
  type SampleRenderRequest,
} from '../../server/domains/site-build/samples.ts';

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
  {
    id: 'paper-fox',
    creator: 'Veo3 Studio',
    videoUrl: '/samples/paper-fox.mp4',
    embedUrl: '/embed/paper-fox',
    category: 'Animation',
    title: 'Paper fox',
    prompt: 'A paper fox trots through folded leaves',
  },
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

describe('ensureSampleClips', () => {
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

  it('renders each clip once, then reuses the cache and links the files into the release', async () => {
    await writeJson('gallery.json', gallery);
    await writeJson('effects.json', {
      cards: [{ title: 'Snow', sample: { id: 'effect-snow', prompt: 'A snow globe' } }],
    });
    const cacheDir = path.join(root, 'cache');
    const { calls, render } = countingRenderer();

    const first = await ensureSampleClips({
      projectRoot: root,
      cacheDir,
      render,
      releaseDir: path.join(root, 'release-1'),
    });
    expect(calls.sort()).toEqual(['A paper fox trots through folded leaves', 'A snow globe']);
    const cachedMtime = (await stat(first[0]!.video)).mtimeMs;

    await ensureSampleClips({
      projectRoot: root,
      cacheDir,
      render,
      releaseDir: path.join(root, 'release-2'),
    });
    expect(calls).toHaveLength(2);
    expect((await stat(first[0]!.video)).mtimeMs).toBe(cachedMtime);

    for (const release of ['release-1', 'release-2']) {
      const video = path.join(root, release, 'samples', 'paper-fox.mp4');
      expect(await readFile(video, 'utf8')).toBe('video:A paper fox trots through folded leaves');
      expect(await readFile(path.join(root, release, 'samples', 'effect-snow.jpg'), 'utf8')).toBe(
        'poster:A snow globe',
      );
      // A hard link: the release costs no extra disk space.
      expect((await stat(video)).ino).toBe((await stat(first[0]!.video)).ino);
    }
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
    const releaseDir = path.join(root, 'release');
    const started = Date.now();
    await ensureSampleClips({ projectRoot: root, cacheDir, releaseDir });
    const firstMs = Date.now() - started;
    const video = await readFile(path.join(releaseDir, 'samples', 'paper-fox.mp4'));
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const poster = await readFile(path.join(releaseDir, 'samples', 'paper-fox.jpg'));
    expect([...poster.subarray(0, 2)]).toEqual([0xff, 0xd8]);

    const again = Date.now();
    await ensureSampleClips({ projectRoot: root, cacheDir, releaseDir });
    // A cache hit only stats and links files; a render takes over a second.
    expect(Date.now() - again).toBeLessThan(Math.min(500, firstMs / 2));
  });
});
