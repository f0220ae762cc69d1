/**
 * The burned-in caption stays visible under the player's controls (issue 20 item 10): a browser
 * draws its video controls over the bottom of the picture (about 48 CSS px; on a 390 px phone
 * that is a fifth of a 16:9 picture's 219 px), so every caption line, box included, lies in the
 * top third of the frame, in both render modes and every frame (16:9 and 9:16, 720p and 1080p:
 * issue 35), however many lines the prompt takes, with the negative prompt's line under them.
 */
import { describe, expect, it } from 'vitest';
import { renderGraph } from '../../server/domains/video/providers/local/render/compose.ts';
import type { Frame } from '../../server/domains/video/providers/local/render/frame.ts';
import { frameSize } from '../../shared/video-options.ts';
import { sceneFromPrompt } from '../../server/domains/video/providers/local/render/scene.ts';

/** Each drawtext's top and bottom (box included), with text_h = its font size. */
function captionBoxes(graph: string, frame: Frame) {
  return [
    ...graph.matchAll(/drawtext=[^;]*?fontsize=(\d+)[^;]*?boxborderw=(\d+)[^;]*?:y=([^:,;[]+)/g),
  ].map((m) => {
    const [size, border] = [Number(m[1]), Number(m[2])];
    const expr = m[3]!
      .replace(/\\/g, '')
      .replace(/text_h/g, String(size))
      .replace(/\bh\b/g, String(frame.height));
    expect(expr).toMatch(/^[\d+\-*/(). ]+$/);
    const top = Function(`return (${expr});`)() as number;
    return { top: top - border, bottom: top + size + border, textTop: top, textBottom: top + size };
  });
}

const frames = [
  ['16:9 720p', frameSize('16:9', '720p')],
  ['16:9 1080p', frameSize('16:9', '1080p')],
  ['9:16 720p', frameSize('9:16', '720p')],
  ['9:16 1080p', frameSize('9:16', '1080p')],
] as const;

describe.each([
  ['text mode', { mode: 'text' } as const],
  ['image mode', { mode: 'image', input: '0:v' } as const],
])('%s caption', (_mode, picture) => {
  it.each(
    frames.flatMap(([name, frame]) =>
      (frame.height > frame.width ? [1, 2, 3] : [1, 2]).map(
        (lines) => [name, frame, lines] as const,
      ),
    ),
  )(
    '%s: %i line(s) and the negative prompt sit in the top third, clear of the controls',
    (_name, frame, lines) => {
      const graph = renderGraph({
        scene: sceneFromPrompt('a prompt'),
        frame,
        seconds: 8,
        picture,
        captions: {
          lines: Array.from({ length: lines }, (_, i) => `/tmp/caption-${i}.txt`),
          negative: '/tmp/negative.txt',
          fontFile: '/fonts/DejaVuSans-Bold.ttf',
        },
      });
      const boxes = captionBoxes(graph, frame);
      expect(boxes).toHaveLength(lines + 1);
      for (const { top, bottom } of boxes) {
        expect(top).toBeGreaterThanOrEqual(0);
        expect(bottom).toBeLessThanOrEqual(frame.height / 3);
      }
      // No line's text runs into the next.
      boxes
        .slice(1)
        .forEach((box, i) => expect(box.textTop).toBeGreaterThanOrEqual(boxes[i]!.textBottom));
    },
  );
});
