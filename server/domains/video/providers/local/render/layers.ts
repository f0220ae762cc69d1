/**
 * What a local render draws over its picture for the creative options (issue 35): the end frame a
 * video must finish on (cross-faded in, then held) and the reference images (a strip of
 * thumbnails), as filtergraph chains from an input label to an output label.
 */
import { chain, filter, num } from './filtergraph.ts';
import { even, unitOf, type Frame } from './frame.ts';
import { FPS } from './scene.ts';
import { fitOverBlur } from './video-graph.ts';

/** The end frame fades in over this long and is then shown alone for the last HOLD seconds. */
const END_FADE_SECONDS = 1.5;
const END_HOLD_SECONDS = 1;

/**
 * The end frame [`image`] fitted into the frame (fitOverBlur), cross-faded over [`base`] from
 * END_FADE_SECONDS + END_HOLD_SECONDS before the end and alone for the last END_HOLD_SECONDS, so
 * the clip finishes on the given image. Output [`out`].
 */
export function endFrameLayer(
  image: string,
  frame: Frame,
  seconds: number,
  base: string,
  out: string,
): string[] {
  const frames = Math.round(seconds * FPS);
  const start = seconds - END_HOLD_SECONDS - END_FADE_SECONDS;
  return [
    ...fitOverBlur(image, frame.width, frame.height, `${out}fit`),
    chain(
      [`${out}fit`],
      [
        // The one composed frame, repeated for the whole segment, then faded in by its alpha.
        filter('loop', { loop: frames - 1, size: 1, start: 0 }),
        filter('setpts', { expr: `N/(${FPS}*TB)` }),
        'format=yuva420p',
        filter('fade', { t: 'in', st: num(start), d: num(END_FADE_SECONDS), alpha: 1 }),
      ],
      [`${out}faded`],
    ),
    chain(
      [base, `${out}faded`],
      [filter('overlay', { x: 0, y: 0, enable: `gte(t,${num(start)})` })],
      [out],
    ),
  ];
}

/**
 * An extension's start: the earlier clip's last frame [`still`], fitted into the frame, over
 * [`base`] and fading out over `seconds`, so the new part grows out of where the clip stopped.
 * Output [`out`].
 */
export function fadingStill(
  still: string,
  frame: Frame,
  seconds: number,
  base: string,
  out: string,
): string[] {
  return [
    ...fitOverBlur(still, frame.width, frame.height, `${out}fit`),
    chain(
      [`${out}fit`],
      [
        filter('loop', { loop: Math.round(seconds * FPS) - 1, size: 1, start: 0 }),
        filter('setpts', { expr: `N/(${FPS}*TB)` }),
        'format=yuva420p',
        filter('fade', { t: 'out', st: 0, d: num(seconds), alpha: 1 }),
      ],
      [`${out}faded`],
    ),
    // Once the still's frames end, the picture below passes through alone.
    chain([base, `${out}faded`], [filter('overlay', { x: 0, y: 0, eof_action: 'pass' })], [out]),
  ];
}

/** Where each reference thumbnail goes: a centred row a quarter of the short side above the bottom. */
export function referenceSlots(count: number, frame: Frame) {
  const short = Math.min(frame.width, frame.height);
  const border = Math.max(2, Math.round(4 * unitOf(frame)));
  const thumb = even(short * 0.18);
  const outer = thumb + 2 * border;
  const gap = Math.round(short * 0.025);
  const left = Math.round((frame.width - (count * outer + (count - 1) * gap)) / 2);
  const top = frame.height - Math.round(short * 0.25) - outer;
  return Array.from({ length: count }, (_, i) => ({
    x: left + i * (outer + gap),
    y: top,
    thumb,
    border,
  }));
}

/**
 * The reference images [`images`] as square thumbnails with a white border, in a row over
 * [`base`] for the whole clip (a stand-in for keeping their subject in the shot). Output [`out`].
 */
export function referenceStrip(images: string[], frame: Frame, base: string, out: string) {
  const parts: string[] = [];
  let last = base;
  referenceSlots(images.length, frame).forEach(({ x, y, thumb, border }, i) => {
    const next = i === images.length - 1 ? out : `${out}${i}`;
    parts.push(
      chain(
        [images[i]!],
        [
          filter('trim', { end_frame: 1 }),
          'setsar=1',
          filter('scale', { w: thumb, h: thumb, force_original_aspect_ratio: 'increase' }),
          filter('crop', { w: thumb, h: thumb }),
          filter('pad', {
            w: thumb + 2 * border,
            h: thumb + 2 * border,
            x: border,
            y: border,
            color: 'white',
          }),
          'format=yuv420p',
        ],
        [`${out}t${i}`],
      ),
      // One frame: overlay repeats it to the end (eof_action=repeat).
      chain([last, `${out}t${i}`], [filter('overlay', { x, y, eof_action: 'repeat' })], [next]),
    );
    last = next;
  });
  return parts;
}
