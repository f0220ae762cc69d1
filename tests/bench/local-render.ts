/**
 * `npm run bench` section `render`: the local renderer's wall time for one 8 s clip (the spec's
 * 16:9 720p; goal ≤ 0.6 × real time), and at 9:16 1080p (issue 35) an 8 s text clip and that clip
 * extended by 7 s (15 s), each as render time ÷ clip length.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  renderLocalVideo,
  type RenderRequest,
} from '../../server/domains/video/providers/local/renderer.ts';
import type { Figure } from '../helpers/measure.ts';

const PROMPT = 'A lighthouse beam sweeping over a stormy sea at night';

export async function localRenderBench(): Promise<{ figures: Figure[] }> {
  const figures: Figure[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'veo3-render-'));
  /** Renders once: the wall time, and its ratio to the clip's length (time ÷ real time). */
  async function timed(
    label: string,
    req: Omit<RenderRequest, 'outputPath' | 'posterPath'>,
    ratioName: string,
    goal?: number,
  ): Promise<string> {
    const outputPath = path.join(dir, `${figures.length}.mp4`);
    const started = performance.now();
    const { durationSeconds } = await renderLocalVideo({
      ...req,
      outputPath,
      posterPath: path.join(dir, `${figures.length}.jpg`),
    });
    const seconds = (performance.now() - started) / 1000;
    const ratio = seconds / durationSeconds;
    figures.push(
      { name: `${label} (wall time)`, value: +seconds.toFixed(2), unit: 's' },
      {
        name: ratioName,
        value: +ratio.toFixed(2),
        unit: '×',
        ...(goal === undefined ? {} : { goal: `≤ ${goal}`, met: ratio <= goal }),
      },
    );
    return outputPath;
  }
  try {
    await timed(
      'local render of one 8 s clip',
      { prompt: PROMPT, mode: 'text' },
      'local render time / clip length',
      0.6,
    );
    const vertical = { aspectRatio: '9:16', resolution: '1080p' } as const;
    const clip = await timed(
      'local render, 9:16 1080p 8 s text clip',
      { prompt: PROMPT, mode: 'text', options: vertical },
      'local render time / clip length, 9:16 1080p text',
    );
    await timed(
      'local render, 9:16 1080p clip extended to 15 s',
      {
        prompt: 'The storm clears and the sun rises over the sea',
        mode: 'text',
        options: vertical,
        sourceVideoPath: clip,
      },
      'local render time / clip length, 9:16 1080p extend (8 s + 7 s)',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { figures };
}
