/**
 * What a local render looks and sounds like, as ffmpeg filtergraphs. Everything is derived from a
 * SHA-256 of the prompt through a seeded generator, so the same prompt always yields the same
 * graph (and so the same video) and different prompts yield different palettes, shapes, motion
 * and notes. Nothing here reads the clock or Math.random.
 *
 * Sync: the beat period is 12 frames = 0.5 s at 24 fps (120 BPM), so beats fall on frames
 * 0, 12, 24, … 180 and at 0.0, 0.5, … 7.5 s. On those frames the picture flashes and the shapes
 * (text mode) or the camera (image mode) punch outward; on the same samples the audio strikes a
 * kick and a plucked note. Both are computed from the frame number / sample time, not from
 * accumulated state, so they cannot drift apart.
 */
import { createHash } from 'node:crypto';
import { chain, filter, num } from './filtergraph.ts';

export const WIDTH = 1280;
export const HEIGHT = 720;
export const FPS = 24;
export const DURATION_SECONDS = 8;
export const FRAME_COUNT = FPS * DURATION_SECONDS;
export const SAMPLE_RATE = 48_000;
/** Frames between beats; 24 fps makes this exactly 0.5 s, a whole number of audio samples. */
export const BEAT_FRAMES = 12;
export const BEAT_SECONDS = BEAT_FRAMES / FPS;
/** The frame shown as the poster: mid-beat (no flash) and far enough in for motion to show. */
export const POSTER_FRAME = 90;

/** Small seeded PRNG (sfc32): deterministic, platform-independent 32-bit integer arithmetic. */
function seededRandom(seed: Buffer): () => number {
  let a = seed.readUInt32LE(0);
  let b = seed.readUInt32LE(4);
  let c = seed.readUInt32LE(8);
  let d = seed.readUInt32LE(12);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

type Rgb = readonly [number, number, number];

function hslToRgb(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(255 * f(0)), Math.round(255 * f(8)), Math.round(255 * f(4))];
}

interface Shape {
  kind: 'disc' | 'ring';
  size: number;
  color: Rgb;
  orbitX: number;
  orbitY: number;
  speedX: number;
  speedY: number;
  phaseX: number;
  phaseY: number;
  kick: number;
}

/** The prompt's look and sound: every number the graphs below use. */
export interface Scene {
  palette: [Rgb, Rgb, Rgb];
  plasma: number[];
  shapes: Shape[];
  kickStartHz: number;
  kickEndHz: number;
  kickDrop: number;
  notesHz: number[];
  padHz: number;
  zoomIn: boolean;
  panFrom: [number, number];
  panTo: [number, number];
}

/** Derives the scene from the prompt alone (sha256 → sfc32). */
export function sceneFromPrompt(prompt: string): Scene {
  const rand = seededRandom(createHash('sha256').update(prompt, 'utf8').digest());
  const between = (lo: number, hi: number) => lo + (hi - lo) * rand();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

  const hue = between(0, 360);
  // Analogous, complementary or triadic: three hue offsets for dark, mid and bright stops.
  const scheme = pick([
    [0, 30, 60],
    [0, 180, 30],
    [0, 120, 240],
    [0, -40, 150],
  ] as const);
  const palette: [Rgb, Rgb, Rgb] = [
    hslToRgb((hue + scheme[0] + 360) % 360, between(0.5, 0.8), between(0.1, 0.2)),
    hslToRgb((hue + scheme[1] + 360) % 360, between(0.55, 0.9), between(0.35, 0.5)),
    hslToRgb((hue + scheme[2] + 360) % 360, between(0.6, 1), between(0.6, 0.75)),
  ];
  const plasma = Array.from({ length: 12 }, () => rand());

  const shapes: Shape[] = Array.from({ length: 3 + Math.floor(rand() * 3) }, () => {
    const size = 2 * Math.round(between(50, 130));
    const light = between(0.65, 0.85);
    return {
      kind: rand() < 0.5 ? 'disc' : 'ring',
      size,
      color: hslToRgb((hue + between(-60, 200) + 360) % 360, between(0.6, 1), light),
      orbitX: between(120, 480),
      orbitY: between(60, 230),
      speedX: between(0.35, 1.3) * (rand() < 0.5 ? -1 : 1),
      speedY: between(0.35, 1.3) * (rand() < 0.5 ? -1 : 1),
      phaseX: between(0, 2 * Math.PI),
      phaseY: between(0, 2 * Math.PI),
      kick: between(0.15, 0.35),
    };
  });

  // Pentatonic notes over a root between G3 and G4, so any four of them sound consonant.
  const root = 196 * 2 ** (Math.floor(rand() * 12) / 12);
  const pentatonic = [1, 9 / 8, 5 / 4, 3 / 2, 5 / 3, 2];
  const notesHz = Array.from({ length: 4 }, () => root * pick(pentatonic));

  return {
    palette,
    plasma,
    shapes,
    kickStartHz: between(120, 170),
    kickEndHz: between(42, 58),
    kickDrop: between(25, 40),
    notesHz,
    padHz: root / 2,
    zoomIn: rand() < 0.6,
    panFrom: [between(0.3, 0.7), between(0.35, 0.65)],
    panTo: [between(0.3, 0.7), between(0.35, 0.65)],
  };
}

/** Frames since the last beat, as an ffmpeg expression over the frame number `n`. */
const sinceBeat = (frameVar: string) => `mod(${frameVar},${BEAT_FRAMES})`;

/**
 * The beat flash: a white veil on the beat frame and a fainter one on the next, drawn with the
 * timeline `enable` so it lands on exact frames.
 */
function beatFlash(strength: number): string[] {
  return [
    filter('drawbox', {
      x: 0,
      y: 0,
      w: 'iw',
      h: 'ih',
      t: 'fill',
      color: `white@${num(strength, 3)}`,
      enable: `eq(${sinceBeat('n')},0)`,
    }),
    filter('drawbox', {
      x: 0,
      y: 0,
      w: 'iw',
      h: 'ih',
      t: 'fill',
      color: `white@${num(strength * 0.4, 3)}`,
      enable: `eq(${sinceBeat('n')},1)`,
    }),
  ];
}

/** One drawtext per caption line (each centred, subtitle style), text read from `files`. */
function captionFilters(files: string[], fontFile: string): string[] {
  const lineHeight = 56;
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
      y: `h-${60 + (files.length - i) * lineHeight}+(${lineHeight}-text_h)/2`,
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

/**
 * The soundtrack as one aevalsrc expression (mono, duplicated to stereo). With τ the time since the
 * last beat (0..0.5 s):
 * a kick whose pitch falls from kickStartHz to kickEndHz, a plucked note cycling through four
 * pentatonic notes per bar, both struck at τ = 0 (every beat), over a quiet two-note pad.
 * Output [aout].
 */
export function audioGraph(scene: Scene): string {
  const tau = 'ld(0)';
  const [f0, f1] = [scene.kickStartHz, scene.kickEndHz];
  const k = scene.kickDrop;
  const kick = `0.55*sin(2*PI*(${num(f1)}*${tau}+${num((f0 - f1) / k)}*(1-exp(-${num(k)}*${tau}))))*exp(-9*${tau})`;
  const [n0, n1, n2, n3] = scene.notesHz.map((hz) => num(hz, 3));
  const note = `if(eq(ld(1),0),${n0},if(eq(ld(1),1),${n1},if(eq(ld(1),2),${n2},${n3})))`;
  const pluck = `0.2*sin(2*PI*${note}*${tau})*exp(-7*${tau})`;
  const pad = `0.05*(sin(2*PI*${num(scene.padHz, 3)}*t)+0.7*sin(2*PI*${num(scene.padHz * 1.5, 3)}*t))*(0.8+0.2*sin(PI*t/2))`;
  // From the integer sample index n, not t, so beat onsets land on exact samples.
  const beatSamples = SAMPLE_RATE * BEAT_SECONDS;
  const expr =
    `st(0,mod(n,${beatSamples})/${SAMPLE_RATE});` +
    `st(1,mod(floor(n/${beatSamples}),4));` +
    `${kick}+${pluck}+${pad}`;
  return chain(
    [],
    [
      filter('aevalsrc', { exprs: expr, c: 'mono', s: SAMPLE_RATE, d: DURATION_SECONDS }),
      filter('pan', { args: 'stereo|c0=c0|c1=c0' }),
    ],
    ['aout'],
  );
}
