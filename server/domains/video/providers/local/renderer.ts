/**
 * The local video renderer: the default provider in local mode, a stand-in for Veo that makes
 * real H.264/AAC MP4s (with a JPEG poster) offline, using the ffmpeg binary shipped in the
 * @ffmpeg-installer npm package and the DejaVu font shipped in dejavu-fonts-ttf. With no option it
 * makes the spec's clip (8 s, 1280x720); it also does every creative option (issue 35): 9:16 and
 * 1080p frames, the fast tier (a faster encoder preset), a seed, the negative prompt (a caption
 * line), an end frame, reference images, and extending an earlier video by EXTEND_SECONDS.
 * What the video looks and sounds like lives in ./render/ (scene, frame, graphs and layers).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import {
  DEFAULT_OPTIONS,
  EXTEND_SECONDS,
  frameSize,
  MAX_REFERENCE_IMAGES,
  type VideoOptions,
} from '../../../../../shared/video-options.ts';
import {
  captionLines,
  LANDSCAPE_CAPTION,
  negativeCaptionLine,
  PORTRAIT_CAPTION,
} from './render/caption.ts';
import { renderGraph, type Picture } from './render/compose.ts';
import { isPortrait } from './render/frame.ts';
import { DURATION_SECONDS, FPS, sceneFromPrompt } from './render/scene.ts';
import { probeSourceVideo } from './render/source-probe.ts';

export { BEAT_FRAMES, DURATION_SECONDS, FPS, SAMPLE_RATE } from './render/scene.ts';

/** The options that change how a render looks (the images and the source come as files). */
type RenderOptions = Pick<
  VideoOptions,
  'aspectRatio' | 'resolution' | 'tier' | 'negativePrompt' | 'seed'
>;

export interface RenderRequest {
  prompt: string;
  mode: 'text' | 'image';
  /** The uploaded still (JPEG/PNG/GIF/WebP), required in image mode. */
  imagePath?: string;
  /** Shape, size, tier, negative prompt and seed; what is left out is the spec's clip's. */
  options?: Partial<RenderOptions>;
  /** The image the clip ends on (cross-faded in over the last seconds). */
  lastFramePath?: string;
  /** Reference images (one to three), shown as thumbnails in the frame. */
  referenceImagePaths?: string[];
  /**
   * Extend: an MP4 to continue. The clip is that video (fitted to the frame) followed by
   * EXTEND_SECONDS continuing from its last frame, with sound throughout.
   */
  sourceVideoPath?: string;
  /** Where the .mp4 goes; written under a temporary name and renamed on success. */
  outputPath: string;
  /** Where the poster .jpg goes. */
  posterPath: string;
  signal?: AbortSignal;
  /** Fraction done, 0..1, increasing, from ffmpeg's own progress; the last call is exactly 1. */
  onProgress?: (fraction: number) => void;
  /** Run ffmpeg at the lowest CPU priority (background work that must not slow requests). */
  lowPriority?: boolean;
}

export interface RenderResult {
  durationSeconds: number;
  width: number;
  height: number;
}

/** The ffmpeg binary from @ffmpeg-installer (never a system ffmpeg). */
export const ffmpegPath: string = ffmpegInstaller.path;

/** DejaVu Sans Bold from the dejavu-fonts-ttf package, so captions never depend on system fonts. */
const captionFontPath: string = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
  'DejaVuSans-Bold.ttf',
);

/**
 * Speed over size: superfast encodes the 192 frames in about a third of the time veryfast takes
 * on two cores, for a ~1.5 MB file, which keeps the render well under 0.6× real time. The fast
 * tier trades more size for speed (ultrafast).
 */
const PRESETS = { standard: 'superfast', fast: 'ultrafast' } as const;
const STDERR_TAIL_CHARS = 4000;

function abortError(signal: AbortSignal): DOMException {
  const error = new DOMException('The render was aborted', 'AbortError');
  if (signal.reason !== undefined) Object.assign(error, { cause: signal.reason });
  return error;
}

/** Refuses a request whose files do not match what it asks for, before anything runs. */
function checkRequest(req: RenderRequest): void {
  if (req.mode === 'image' && !req.imagePath && !req.sourceVideoPath) {
    throw new Error('Image mode needs an imagePath');
  }
  if ((req.referenceImagePaths?.length ?? 0) > MAX_REFERENCE_IMAGES) {
    throw new Error(`At most ${MAX_REFERENCE_IMAGES} reference images`);
  }
}

/**
 * Renders one clip (and its poster) for `req.prompt`: a procedural animation in text mode, the
 * uploaded image with pan and zoom in image mode, or an earlier video and its continuation, each
 * with a beat-synchronised soundtrack, in the requested frame with the requested layers.
 * Rejects with an AbortError when `req.signal` aborts, or with an Error carrying the tail of
 * ffmpeg's stderr; either way no partial output is left behind.
 */
export async function renderLocalVideo(req: RenderRequest): Promise<RenderResult> {
  if (req.signal?.aborted) throw abortError(req.signal);
  checkRequest(req);
  const options: RenderOptions = { ...DEFAULT_OPTIONS, ...req.options };
  const frame = frameSize(options.aspectRatio, options.resolution);

  await mkdir(path.dirname(req.outputPath), { recursive: true });
  await mkdir(path.dirname(req.posterPath), { recursive: true });
  const workDir = await mkdtemp(path.join(tmpdir(), 'local-render-'));
  const suffix = randomBytes(6).toString('hex');
  // Temporary names beside the targets, so the final rename is atomic and a crash leaves no
  // half-written file under the real name.
  const partialVideo = `${req.outputPath}.${suffix}.partial`;
  const partialPoster = `${req.posterPath}.${suffix}.partial`;
  try {
    const scene = sceneFromPrompt(req.prompt, options.seed);
    // Caption lines go to files read by drawtext (textfile=): user text never enters the graph.
    const box = isPortrait(frame) ? PORTRAIT_CAPTION : LANDSCAPE_CAPTION;
    const writeText = async (name: string, text: string) => {
      const file = path.join(workDir, name);
      await writeFile(file, text, 'utf8');
      return file;
    };
    const lines = await Promise.all(
      captionLines(req.prompt, box).map((line, i) => writeText(`caption-${i}.txt`, line)),
    );
    const negativeLine = negativeCaptionLine(options.negativePrompt, box);
    const negative = negativeLine === null ? null : await writeText('negative.txt', negativeLine);

    const inputArgs: string[] = [];
    const addInput = (...args: string[]) => {
      const index = inputArgs.filter((a) => a === '-i').length;
      inputArgs.push(...args);
      return index;
    };
    // Each still is copied to a fixed name without extension: ffmpeg picks the decoder from the
    // content, and no `%` in the caller's path can be taken for an image-sequence pattern.
    const addImage = async (from: string, name: string) => {
      const copy = path.join(workDir, name);
      await copyFile(from, copy);
      return `${addInput('-i', `file:${copy}`)}:v`;
    };

    let picture: Picture;
    let seconds = DURATION_SECONDS;
    let leadFrames = 0;
    if (req.sourceVideoPath) {
      const source = req.sourceVideoPath;
      const facts = await probeSourceVideo(ffmpegPath, source, req.signal);
      leadFrames = Math.max(1, Math.round(facts.seconds * FPS));
      seconds = EXTEND_SECONDS;
      // The same file twice: its last second (for the still to continue) and the whole of it,
      // each read as an MP4 only and through the file protocol only, like the result check
      // (this renderer runs in local mode only, so its bundled ffmpeg reads our own stored clip).
      // prettier-ignore
      const tail = addInput('-protocol_whitelist', 'file', '-f', 'mov', '-sseof', '-1', '-i', `file:${source}`);
      const whole = addInput('-protocol_whitelist', 'file', '-f', 'mov', '-i', `file:${source}`);
      picture = {
        mode: 'extend',
        source: {
          video: `${whole}:v:0`,
          audio: facts.hasAudio ? `${whole}:a:0` : null,
          tail: `${tail}:v:0`,
          frames: leadFrames,
        },
      };
    } else if (req.mode === 'image') {
      picture = { mode: 'image', input: await addImage(req.imagePath!, 'image') };
    } else {
      picture = { mode: 'text' };
    }
    const endFrame = req.lastFramePath ? await addImage(req.lastFramePath, 'last-frame') : null;
    const references: string[] = [];
    for (const [i, file] of (req.referenceImagePaths ?? []).entries()) {
      references.push(await addImage(file, `reference-${i}`));
    }
    const totalSeconds = leadFrames / FPS + seconds;
    const graph = renderGraph({
      scene,
      frame,
      seconds,
      picture,
      ...(endFrame ? { endFrame } : {}),
      references,
      captions: { lines, negative, fontFile: captionFontPath },
    });

    const args = [
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-loglevel',
      'error',
      '-progress',
      'pipe:1',
      '-y',
      ...inputArgs,
      '-filter_complex',
      graph,
      '-map',
      '[vout]',
      '-map',
      '[aout]',
      '-c:v',
      'libx264',
      '-preset',
      PRESETS[options.tier],
      '-crf',
      '22',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(FPS),
      '-g',
      String(FPS * 2),
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-t',
      String(totalSeconds),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      `file:${partialVideo}`,
      '-map',
      '[poster]',
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2',
      '-update',
      '1',
      `file:${partialPoster}`,
    ];
    await runFfmpeg(args, totalSeconds, req.signal, req.onProgress, req.lowPriority);
    // ffmpeg exits 0 in a few odd cases without writing (e.g. an output that got no frames).
    await stat(partialVideo);
    await stat(partialPoster);
    await rename(partialVideo, req.outputPath);
    await rename(partialPoster, req.posterPath);
    req.onProgress?.(1);
    return { durationSeconds: totalSeconds, width: frame.width, height: frame.height };
  } catch (error) {
    await Promise.all([rm(partialVideo, { force: true }), rm(partialPoster, { force: true })]);
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Runs ffmpeg with `-progress pipe:1` on stdout, turning its out_time_us into fractions of the
 * clip (strictly increasing, below 1: the caller reports 1 once the files are in place).
 */
function runFfmpeg(
  args: string[],
  seconds: number,
  signal: AbortSignal | undefined,
  onProgress: ((fraction: number) => void) | undefined,
  lowPriority = false,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // The signal may have fired while we were preparing files.
    if (signal?.aborted) return reject(abortError(signal));
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (lowPriority && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // Not allowed here (some containers): the render still runs, at normal priority.
      }
    }
    let stderr = '';
    let stdoutRest = '';
    let lastFraction = 0;
    let aborted = false;
    let callbackError: unknown;

    const onAbort = () => {
      aborted = true;
      // SIGKILL: ffmpeg's SIGTERM handler would first finish muxing, which we would delete anyway.
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (stdoutRest + chunk).split('\n');
      stdoutRest = lines.pop() ?? '';
      for (const line of lines) {
        // out_time_us (newer builds) and out_time_ms (older ones, also in microseconds).
        const match = /^out_time_[um]s=(\d+)/.exec(line.trim());
        if (!match) continue;
        const fraction = Math.min(0.99, Number(match[1]) / (seconds * 1e6));
        if (fraction > lastFraction && callbackError === undefined) {
          lastFraction = fraction;
          try {
            onProgress?.(fraction);
          } catch (error) {
            // A throwing callback must not crash the process from inside a stream handler.
            callbackError = error;
            child.kill('SIGKILL');
          }
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });

    const settle = (error?: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else resolve();
    };
    child.on('error', (error) => settle(new Error(`Could not run ffmpeg: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      if (aborted && signal) return settle(abortError(signal));
      if (callbackError !== undefined) return settle(callbackError);
      if (code === 0) return settle();
      const reason = code === null ? `was killed by ${killedBy}` : `exited with code ${code}`;
      settle(new Error(`ffmpeg ${reason}: ${stderr.trim() || '(no error output)'}`));
    });
  });
}
