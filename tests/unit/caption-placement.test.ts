/**
 * The burned-in caption stays visible under the player's controls (issue 20 item 10): a browser
 * draws its video controls over the bottom of the picture (about 48 CSS px; on a 390 px phone
 * that is a fifth of a 16:9 picture's 219 px), so every caption line, box included, lies in the
 * top third of the frame, in both render modes, however many lines the prompt takes.
 */
import { describe, expect, it } from 'vitest';
import {
  imageModeVideoGraph,
  textModeVideoGraph,
} from '../../server/domains/video/providers/local/render/video-graph.ts';
import {
  HEIGHT,
  sceneFromPrompt,
} from '../../server/domains/video/providers/local/render/scene.ts';

const FONT_SIZE = 38;
const BOX_BORDER = 10;

/** Each drawtext's y expression, evaluated with text_h = the font size and h = the frame height. */
function captionTops(graph: string): number[] {
  return [...graph.matchAll(/drawtext=[^,;]*?:y=([^:,;[]+)/g)].map((m) => {
    const expr = m[1]!
      .replace(/\\/g, '')
      .replace(/text_h/g, String(FONT_SIZE))
      .replace(/\bh\b/g, String(HEIGHT));
    expect(expr).toMatch(/^[\d+\-*/(). ]+$/);
    return Function(`return (${expr});`)() as number;
  });
}

describe.each([
  ['text mode', textModeVideoGraph],
  ['image mode', imageModeVideoGraph],
] as const)('%s caption', (_mode, graphOf) => {
  it.each([1, 2])('%i line(s) sit in the top third, clear of the controls', (lines) => {
    const files = Array.from({ length: lines }, (_, i) => `/tmp/caption-${i}.txt`);
    const graph = graphOf(sceneFromPrompt('a prompt'), files, '/fonts/DejaVuSans-Bold.ttf');
    const tops = captionTops(graph);
    expect(tops).toHaveLength(lines);
    for (const top of tops) {
      expect(top - BOX_BORDER).toBeGreaterThanOrEqual(0);
      expect(top + FONT_SIZE + BOX_BORDER).toBeLessThanOrEqual(HEIGHT / 3);
    }
  });
});
