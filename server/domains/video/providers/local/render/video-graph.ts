/**
 * The picture of a local render as ffmpeg filtergraph chains, built from a Scene (./scene.ts) for a
 * Frame (./frame.ts): text mode (a plasma field with orbiting shapes) and image mode (a still,
 * zoomed and panned), the beat flash, the caption, and the split into video and poster. Layers
 * drawn over the picture (an end frame, reference images) are in ./layers.ts; ./compose.ts joins
 * it all into one graph.
 */
import { chain, filter, num } from './filtergraph.ts';
import { even, isPortrait, stretchOf, unitOf, type Frame } from './frame.ts';
import { BEAT_FRAMES, FPS, type Scene, type Shape } from './scene.ts';

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

/** The caption's type, line pitch, box border and distance from the top edge at 720p. */
const CAPTION_FONT_SIZE = 38;
const CAPTION_LINE_HEIGHT = 56;
const CAPTION_BORDER = 10;
const CAPTION_TOP = 40;
/** The negative prompt's line: smaller type (caption.ts NEGATIVE_CAPTION_SCALE), its own pitch. */
const NEGATIVE_FONT_SIZE = 30;
const NEGATIVE_LINE_HEIGHT = 46;

/** The caption of a render: one file per prompt line, the negative prompt's line, the font. */
export interface CaptionFiles {
  lines: string[];
  negative: string | null;
  fontFile: string;
}

/**
 * One drawtext per caption line (each centred, in a dark box), text read from files, then the
 * negative prompt's line in smaller, dimmer type. The caption sits at the top of the frame: a
 * browser's video controls cover the bottom of the picture while it is paused or hovered, and on
 * a phone they take a quarter of its height. Sizes grow with the frame's short side.
 */
function captionFilters(captions: CaptionFiles, frame: Frame, fadeInSeconds = 0): string[] {
  const px = (design: number) => Math.round(design * unitOf(frame));
  const [top, lineHeight] = [px(CAPTION_TOP), px(CAPTION_LINE_HEIGHT)];
  const text = (file: string, y: number, pitch: number, size: number, colour: string) =>
    filter('drawtext', {
      fontfile: captions.fontFile,
      textfile: file,
      // Prompts are user text: no %{…} expansion, so nothing in them is ever evaluated.
      expansion: 'none',
      fontsize: size,
      fontcolor: colour,
      box: 1,
      boxcolor: 'black@0.5',
      boxborderw: px(CAPTION_BORDER),
      x: '(w-text_w)/2',
      y: `${y}+(${pitch}-text_h)/2`,
      ...(fadeInSeconds ? { alpha: `min(1,t/${num(fadeInSeconds)})` } : {}),
    });
  const filters = captions.lines.map((file, i) =>
    text(file, top + i * lineHeight, lineHeight, px(CAPTION_FONT_SIZE), 'white'),
  );
  if (captions.negative) {
    const y = top + captions.lines.length * lineHeight;
    const pitch = px(NEGATIVE_LINE_HEIGHT);
    filters.push(text(captions.negative, y, pitch, px(NEGATIVE_FONT_SIZE), 'white@0.8'));
  }
  return filters;
}

/**
 * The flash and the caption over a finished segment picture: [`input`] → [`out`]; the caption
 * fades in over `captionFadeSeconds` (an extension's, while the earlier clip's fades out).
 */
export function finishSegment(
  input: string,
  mode: 'text' | 'image',
  captions: CaptionFiles,
  frame: Frame,
  out: string,
  captionFadeSeconds = 0,
): string {
  const flash = beatFlash(mode === 'text' ? 0.3 : 0.18);
  const caption = captionFilters(captions, frame, captionFadeSeconds);
  return chain([input], [...flash, ...caption], [out]);
}

/** Splits the finished picture into [vout] and the one-frame [poster] (frame `posterFrame`). */
export function videoOutputs(last: string, posterFrame: number): string[] {
  return [
    chain([last], ['split=2'], ['vout', 'vposter']),
    chain(
      ['vposter'],
      [filter('trim', { start_frame: posterFrame, end_frame: posterFrame + 1 })],
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

/**
 * The plasma field: three interfering waves drifting at prompt-specific speeds; `aspect` (height
 * ÷ width) keeps its rings round in any frame; `T` is the time expression.
 */
function plasmaExpr(scene: Scene, aspect: number, T: string): string {
  const p = scene.plasma.map((x) => num(x));
  const f = (i: number, lo: number, hi: number) => num(lo + (hi - lo) * scene.plasma[i]!);
  return [
    `0.5`,
    `0.22*sin(2*PI*${f(0, 0.5, 1.6)}*X/W+${f(1, 0.3, 1.1)}*${T}+${p[2]}*6)` +
      `*cos(2*PI*${f(3, 0.4, 1.4)}*Y/H-${f(4, 0.2, 0.9)}*${T})`,
    `0.18*sin(2*PI*${f(5, 1, 2.6)}*hypot(X/W-${f(6, 0.25, 0.75)}-0.12*sin(0.5*${T}),` +
      `(Y/H-${f(7, 0.3, 0.7)})*${num(aspect)})-${f(8, 0.6, 1.6)}*${T})`,
    `0.1*sin(2*PI*(${f(9, 0.3, 1.2)}*X/W+${f(10, 0.3, 1.2)}*Y/H)+${f(11, 0.3, 1)}*${T})`,
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
 * Text mode: a low-resolution plasma (cheap to evaluate per pixel) scaled up to the frame, and
 * glowing shapes orbiting on Lissajous paths that punch outward on each beat; `seconds` long,
 * output [`out`] (before the flash and caption: finishSegment). `startSeconds`: the motion goes on
 * from that moment (an extension of a clip of the same prompt continues where it stopped).
 */
export function textModePicture(
  scene: Scene,
  frame: Frame,
  seconds: number,
  out: string,
  startSeconds = 0,
) {
  const parts: string[] = [];
  const portrait = isPortrait(frame);
  const at = (time: string) => (startSeconds ? `(${time}+${num(startSeconds)})` : time);
  const v = plasmaExpr(scene, frame.height / frame.width, at('T'));
  const t = at('t');
  const [unit, stretch] = [unitOf(frame), stretchOf(frame)];
  parts.push(
    chain(
      [],
      [
        filter('color', { c: 'black', s: portrait ? '36x64' : '64x36', r: FPS, d: seconds }),
        // The field is one grey plane (one expression per pixel), coloured afterwards by a LUT.
        'format=gray',
        filter('geq', { lum: `255*clip(${v},0,1)` }),
        'format=rgb24',
        filter('lutrgb', {
          r: gradientLut(scene, 0),
          g: gradientLut(scene, 1),
          b: gradientLut(scene, 2),
        }),
        filter('scale', { w: frame.width, h: frame.height, flags: 'bicubic' }),
        'format=yuv420p',
      ],
      [`${out}bg`],
    ),
  );
  let last = `${out}bg`;
  scene.shapes.forEach((design, i) => {
    const shape = { ...design, size: even(design.size * unit) };
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
        [`${out}s${i}`],
      ),
    );
    const punch = `(1+${num(shape.kick)}*exp(-${sinceBeat('n')}/2.5))`;
    const [orbitX, orbitY] = [shape.orbitX * stretch.x, shape.orbitY * stretch.y];
    const next = i === scene.shapes.length - 1 ? out : `${out}o${i}`;
    parts.push(
      chain(
        [last, `${out}s${i}`],
        [
          filter('overlay', {
            x: `(W-w)/2+${num(orbitX)}*${punch}*cos(${num(shape.speedX)}*${t}+${num(shape.phaseX)})`,
            y: `(H-h)/2+${num(orbitY)}*${punch}*sin(${num(shape.speedY)}*${t}+${num(shape.phaseY)})`,
            eof_action: 'repeat',
          }),
        ],
        [next],
      ),
    );
    last = next;
  });
  return parts;
}

/**
 * A still fitted into a w×h frame over a blurred, darkened cover-crop of itself (so an image of
 * another shape is letterboxed, not cut): [`input`] (its first frame) → [`out`], one frame.
 */
export function fitOverBlur(input: string, width: number, height: number, out: string) {
  const radius = Math.round((28 * Math.min(width, height)) / 1080);
  return [
    chain(
      [input],
      [filter('trim', { end_frame: 1 }), 'setsar=1', 'format=yuv420p', 'split=2'],
      [`${out}full`, `${out}back`],
    ),
    chain(
      [`${out}back`],
      [
        filter('scale', { w: width, h: height, force_original_aspect_ratio: 'increase' }),
        filter('crop', { w: width, h: height }),
        filter('boxblur', { luma_radius: radius, luma_power: 2 }),
        filter('eq', { brightness: -0.12, saturation: 0.85 }),
      ],
      [`${out}blurred`],
    ),
    chain(
      [`${out}full`],
      [
        filter('scale', { w: width, h: height, force_original_aspect_ratio: 'decrease' }),
        // yuv420p needs even sizes; the fit above can produce odd ones.
        filter('scale', { w: 'trunc(iw/2)*2', h: 'trunc(ih/2)*2' }),
      ],
      [`${out}fitted`],
    ),
    chain(
      [`${out}blurred`, `${out}fitted`],
      [filter('overlay', { x: '(W-w)/2', y: '(H-h)/2' })],
      [out],
    ),
  ];
}

/**
 * Image mode: the still [`input`] fitted into the frame (fitOverBlur), then a slow zoom and pan
 * (zoompan over the single composed frame) with a small zoom punch on every beat; `seconds` long,
 * output [`out`].
 */
export function imageModePicture(
  scene: Scene,
  frame: Frame,
  seconds: number,
  input: string,
  out: string,
) {
  // Compose at 1.5× the output so the pan has pixels to spare and zoompan's steps stay fine.
  const [cw, ch] = [frame.width * 1.5, frame.height * 1.5];
  const frames = Math.round(seconds * FPS);
  const [z0, z1] = scene.zoomIn ? [1, 1.18] : [1.18, 1];
  const ease = `(0.5-0.5*cos(PI*(on/${frames - 1})))`;
  const zoom = `${num(z0)}+${num(z1 - z0)}*${ease}+0.02*exp(-${sinceBeat('on')}/2)`;
  const lerp = (a: number, b: number) => `(${num(a)}+${num(b - a)}*${ease})`;
  return [
    ...fitOverBlur(input, cw, ch, `${out}c`),
    chain(
      [`${out}c`],
      [
        filter('zoompan', {
          z: zoom,
          x: `(iw-iw/zoom)*${lerp(scene.panFrom[0], scene.panTo[0])}`,
          y: `(ih-ih/zoom)*${lerp(scene.panFrom[1], scene.panTo[1])}`,
          d: frames,
          s: `${frame.width}x${frame.height}`,
          fps: FPS,
        }),
        'setsar=1',
        'format=yuv420p',
      ],
      [out],
    ),
  ];
}
