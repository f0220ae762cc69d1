/**
 * The picture of a local render as an ffmpeg filtergraph, built from a Scene (./scene.ts): text
 * mode (a plasma field with orbiting shapes) and image mode (the still, zoomed and panned). Both
 * flash and punch on the beat frames and burn in the caption; each outputs [vout] and [poster].
 */
import { chain, filter, num } from './filtergraph.ts';
import {
  BEAT_FRAMES,
  DURATION_SECONDS,
  FPS,
  FRAME_COUNT,
  HEIGHT,
  POSTER_FRAME,
  WIDTH,
  type Scene,
  type Shape,
} from './scene.ts';

/** Frames since the last beat, as an ffmpeg expression over the frame number `n`. */
const sinceBeat = (frameVar: string) => `mod(${frameVar},${BEAT_FRAMES})`;

/**
 * The beat flash: a white veil on the beat frame and a fainter one on the next, drawn with the
 * timeline `enable` so it lands on exact frames.
 */
function beatFlash(strength: number): string[] {
  const veil = (opacity: number, frame: number) =>
    filter('drawbox', {
      x: 0,
      y: 0,
      w: 'iw',
      h: 'ih',
      t: 'fill',
      color: `white@${num(opacity, 3)}`,
      enable: `eq(${sinceBeat('n')},${frame})`,
    });
  return [veil(strength, 0), veil(strength * 0.4, 1)];
}

/** The caption's line pitch and its distance from the top edge, in frame pixels. */
const CAPTION_LINE_HEIGHT = 56;
const CAPTION_TOP = 40;

/**
 * One drawtext per caption line (each centred, in a dark box), text read from `files`. The
 * caption sits at the top of the frame: a browser's video controls cover the bottom of the
 * picture while it is paused or hovered, and on a phone they take a quarter of its height.
 */
function captionFilters(files: string[], fontFile: string): string[] {
  const lineHeight = CAPTION_LINE_HEIGHT;
  return files.map((file, i) =>
    filter('drawtext', {
      fontfile: fontFile,
      textfile: file,
      // Prompts are user text: no %{…} expansion, so nothing in them is ever evaluated.
      expansion: 'none',
      fontsize: 38,
      fontcolor: 'white',
      box: 1,
      boxcolor: 'black@0.5',
      boxborderw: 10,
      x: '(w-text_w)/2',
      y: `${CAPTION_TOP + i * lineHeight}+(${lineHeight}-text_h)/2`,
    }),
  );
}

/** Splits the finished picture into the video output and the one-frame poster output. */
function videoOutputs(last: string): string[] {
  return [
    chain([last], ['split=2'], ['vout', 'vposter']),
    chain(
      ['vposter'],
      [filter('trim', { start_frame: POSTER_FRAME, end_frame: POSTER_FRAME + 1 })],
      ['poster'],
    ),
  ];
}

/**
 * The three palette stops as a lookup on the plasma's 0..255 value, for one channel: built once
 * by lutrgb, so the colour costs nothing per pixel.
 */
function gradientLut(scene: Scene, channel: 0 | 1 | 2): string {
  const [c0, c1, c2] = scene.palette.map((c) => c[channel]) as [number, number, number];
  return `if(lt(val,128),${c0}+(${c1 - c0})*val/128,${c1}+(${c2 - c1})*(val-128)/127)`;
}

/** The plasma field: three interfering waves drifting at prompt-specific speeds. */
function plasmaExpr(scene: Scene): string {
  const p = scene.plasma.map((x) => num(x));
  const f = (i: number, lo: number, hi: number) => num(lo + (hi - lo) * scene.plasma[i]!);
  return [
    `0.5`,
    `0.22*sin(2*PI*${f(0, 0.5, 1.6)}*X/W+${f(1, 0.3, 1.1)}*T+${p[2]}*6)` +
      `*cos(2*PI*${f(3, 0.4, 1.4)}*Y/H-${f(4, 0.2, 0.9)}*T)`,
    `0.18*sin(2*PI*${f(5, 1, 2.6)}*hypot(X/W-${f(6, 0.25, 0.75)}-0.12*sin(0.5*T),` +
      `(Y/H-${f(7, 0.3, 0.7)})*0.5625)-${f(8, 0.6, 1.6)}*T)`,
    `0.1*sin(2*PI*(${f(9, 0.3, 1.2)}*X/W+${f(10, 0.3, 1.2)}*Y/H)+${f(11, 0.3, 1)}*T)`,
  ].join('+');
}

function spriteExpr(shape: Shape): { r: string; g: string; b: string; a: string } {
  const half = shape.size / 2;
  const d = `(hypot(X-${num(half - 0.5)},Y-${num(half - 0.5)})/${half})`;
  const tint = (c: number) =>
    shape.kind === 'disc' ? `${c}+${255 - c}*clip(1-${d}*2.5,0,1)` : `${c}+${255 - c}*0.35`;
  const a =
    shape.kind === 'disc'
      ? `255*pow(clip(1-${d},0,1),1.4)`
      : // The halo is faded to zero before the sprite's edge, or its square outline would show.
        `min(255,255*exp(-pow((${d}-0.72)/0.07,2))+90*exp(-pow((${d}-0.72)/0.15,2)))*clip((1-${d})*6,0,1)`;
  return { r: tint(shape.color[0]), g: tint(shape.color[1]), b: tint(shape.color[2]), a };
}

/**
 * Text mode: a low-resolution plasma (cheap to evaluate per pixel) scaled up to 720p, glowing
 * shapes orbiting on Lissajous paths that punch outward on each beat, the beat flash and the
 * caption. Outputs [vout] and [poster].
 */
export function textModeVideoGraph(scene: Scene, captionFiles: string[], fontFile: string) {
  const parts: string[] = [];
  const v = plasmaExpr(scene);
  parts.push(
    chain(
      [],
      [
        filter('color', { c: 'black', s: '64x36', r: FPS, d: DURATION_SECONDS }),
        // The field is one grey plane (one expression per pixel), coloured afterwards by a LUT.
        'format=gray',
        filter('geq', { lum: `255*clip(${v},0,1)` }),
        'format=rgb24',
        filter('lutrgb', {
          r: gradientLut(scene, 0),
          g: gradientLut(scene, 1),
          b: gradientLut(scene, 2),
        }),
        filter('scale', { w: WIDTH, h: HEIGHT, flags: 'bicubic' }),
        'format=yuv420p',
      ],
      ['bg'],
    ),
  );
  let last = 'bg';
  scene.shapes.forEach((shape, i) => {
    const sprite = spriteExpr(shape);
    // One frame is enough: overlay repeats a finished input's last frame (eof_action=repeat).
    parts.push(
      chain(
        [],
        [
          filter('color', { c: 'black', s: `${shape.size}x${shape.size}`, r: FPS, d: 1 }),
          filter('trim', { end_frame: 1 }),
          'format=gbrap',
          filter('geq', sprite),
        ],
        [`s${i}`],
      ),
    );
    const punch = `(1+${num(shape.kick)}*exp(-${sinceBeat('n')}/2.5))`;
    parts.push(
      chain(
        [last, `s${i}`],
        [
          filter('overlay', {
            x: `(W-w)/2+${num(shape.orbitX)}*${punch}*cos(${num(shape.speedX)}*t+${num(shape.phaseX)})`,
            y: `(H-h)/2+${num(shape.orbitY)}*${punch}*sin(${num(shape.speedY)}*t+${num(shape.phaseY)})`,
            eof_action: 'repeat',
          }),
        ],
        [`o${i}`],
      ),
    );
    last = `o${i}`;
  });
  parts.push(
    chain([last], [...beatFlash(0.3), ...captionFilters(captionFiles, fontFile)], ['captioned']),
  );
  parts.push(...videoOutputs('captioned'));
  return parts.join(';');
}

/**
 * Image mode: the still (input 0) is fitted into 16:9 over a blurred, darkened cover-crop of
 * itself (so portrait or square images are letterboxed, not cut), then a slow zoom and pan
 * (zoompan over the single composed frame) with a small zoom punch on every beat, the flash and
 * the caption. Outputs [vout] and [poster].
 */
export function imageModeVideoGraph(scene: Scene, captionFiles: string[], fontFile: string) {
  // Compose at 1.5× the output so the pan has pixels to spare and zoompan's steps stay fine.
  const cw = WIDTH * 1.5;
  const ch = HEIGHT * 1.5;
  const last = FRAME_COUNT - 1;
  const [z0, z1] = scene.zoomIn ? [1, 1.18] : [1.18, 1];
  const progress = `(on/${last})`;
  const ease = `(0.5-0.5*cos(PI*${progress}))`;
  const zoom = `${num(z0)}+${num(z1 - z0)}*${ease}+0.02*exp(-${sinceBeat('on')}/2)`;
  const lerp = (a: number, b: number) => `(${num(a)}+${num(b - a)}*${ease})`;
  const parts = [
    chain(
      ['0:v'],
      [filter('trim', { end_frame: 1 }), 'setsar=1', 'format=yuv420p', 'split=2'],
      ['full', 'back'],
    ),
    chain(
      ['back'],
      [
        filter('scale', { w: cw, h: ch, force_original_aspect_ratio: 'increase' }),
        filter('crop', { w: cw, h: ch }),
        filter('boxblur', { luma_radius: 28, luma_power: 2 }),
        filter('eq', { brightness: -0.12, saturation: 0.85 }),
      ],
      ['blurred'],
    ),
    chain(
      ['full'],
      [
        filter('scale', { w: cw, h: ch, force_original_aspect_ratio: 'decrease' }),
        // yuv420p needs even sizes; the fit above can produce odd ones.
        filter('scale', { w: 'trunc(iw/2)*2', h: 'trunc(ih/2)*2' }),
      ],
      ['fitted'],
    ),
    chain(
      ['blurred', 'fitted'],
      [
        filter('overlay', { x: '(W-w)/2', y: '(H-h)/2' }),
        filter('zoompan', {
          z: zoom,
          x: `(iw-iw/zoom)*${lerp(scene.panFrom[0], scene.panTo[0])}`,
          y: `(ih-ih/zoom)*${lerp(scene.panFrom[1], scene.panTo[1])}`,
          d: FRAME_COUNT,
          s: `${WIDTH}x${HEIGHT}`,
          fps: FPS,
        }),
        'setsar=1',
        'format=yuv420p',
        ...beatFlash(0.18),
        ...captionFilters(captionFiles, fontFile),
      ],
      ['captioned'],
    ),
    ...videoOutputs('captioned'),
  ];
  return parts.join(';');
}
