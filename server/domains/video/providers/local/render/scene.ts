/**
 * What a local render looks and sounds like, as numbers: the timing every graph shares and the
 * Scene derived from a SHA-256 of the prompt (and the request's seed) through a seeded generator,
 * so the same prompt and seed always yield the same graphs (and so the same video) and different
 * prompts or seeds yield different palettes, shapes, motion and notes. The scene's distances are in
 * the 1280×720 design's pixels; ./frame.ts fits them to the requested frame. Nothing here reads
 * the clock or Math.random. The ffmpeg filtergraphs built from a Scene are in ./video-graph.ts,
 * ./layers.ts and ./audio-graph.ts, joined by ./compose.ts.
 *
 * Sync: the beat period is 12 frames = 0.5 s at 24 fps (120 BPM), so beats fall on frames
 * 0, 12, 24, … 180 and at 0.0, 0.5, … 7.5 s. On those frames the picture flashes and the shapes
 * (text mode) or the camera (image mode) punch outward; on the same samples the audio strikes a
 * kick and a plucked note. Both are computed from the frame number / sample time, not from
 * accumulated state, so they cannot drift apart.
 */
import { createHash } from 'node:crypto';

/** The spec's clip: 1280×720 (other shapes and sizes: ./frame.ts). */
export const WIDTH = 1280;
export const HEIGHT = 720;
export const FPS = 24;
export const DURATION_SECONDS = 8;
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

export interface Shape {
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

/** The prompt's look and sound: every number the graphs use. */
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

/**
 * Derives the scene from the prompt and the seed (sha256 → sfc32): without a seed from the prompt
 * alone (the spec's clip, unchanged); with one, every seed gives another look for the same prompt.
 */
export function sceneFromPrompt(prompt: string, seed: number | null = null): Scene {
  const hash = createHash('sha256');
  if (seed !== null) hash.update(`seed ${seed}\n`, 'utf8');
  const rand = seededRandom(hash.update(prompt, 'utf8').digest());
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
