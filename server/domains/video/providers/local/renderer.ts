/**
 * The local video renderer: the default provider in local mode, a stand-in for Veo that makes
 * real 8 s 1280x720 H.264/AAC MP4s (with a JPEG poster) offline, using the ffmpeg binary shipped
 * in the @ffmpeg-installer npm package and the DejaVu font shipped in dejavu-fonts-ttf.
 * What the video looks and sounds like lives in ./render/ (the scene, video and audio graphs).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { captionLines } from './render/caption.ts';
import { audioGraph } from './render/audio-graph.ts';
import { DURATION_SECONDS, FPS, HEIGHT, sceneFromPrompt, WIDTH } from './render/scene.ts';
import { imageModeVideoGraph, textModeVideoGraph } from './render/video-graph.ts';

export { BEAT_FRAMES, DURATION_SECONDS, FPS, SAMPLE_RATE } from './render/scene.ts';

export interface RenderRequest {
  prompt: string;
  mode: 'text' | 'image';
  /** The uploaded still (JPEG/PNG/GIF/WebP), required in image mode. */
  imagePath?: string;
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
 * on two cores, for a ~1.5 MB file, which keeps the render well under 0.6× real time.
 */
const VIDEO_ENCODE = ['-c:v', 'libx264', '-preset', 'superfast', '-crf', '22'];
const STDERR_TAIL_CHARS = 4000;

function abortError(signal: AbortSignal): DOMException {
  const error = new DOMException('The render was aborted', 'AbortError');
  if (signal.reason !== undefined) Object.assign(error, { cause: signal.reason });
  return error;
}

/**
 * Renders one 8 s clip (and its poster) for `req.prompt`: a procedural animation in text mode, the
 * uploaded image with pan and zoom in image mode, both with a beat-synchronised soundtrack.
 * Rejects with an AbortError when `req.signal` aborts, or with an Error carrying the tail of
 * ffmpeg's stderr; either way no partial output is left behind.
 */
export async function renderLocalVideo(req: RenderRequest): Promise<RenderResult> {
  if (req.signal?.aborted) throw abortError(req.signal);
  if (req.mode === 'image' && !req.imagePath) throw new Error('Image mode needs an imagePath');

  await mkdir(path.dirname(req.outputPath), { recursive: true });
  await mkdir(path.dirname(req.posterPath), { recursive: true });
  const workDir = await mkdtemp(path.join(tmpdir(), 'local-render-'));
  const suffix = randomBytes(6).toString('hex');
  // Temporary names beside the targets, so the final rename is atomic and a crash leaves no
  // half-written file under the real name.
  const partialVideo = `${req.outputPath}.${suffix}.partial`;
  const partialPoster = `${req.posterPath}.${suffix}.partial`;
  try {
    const scene = sceneFromPrompt(req.prompt);
    // Caption lines go to files read by drawtext (textfile=): user text never enters the graph.
    const captionFiles = await Promise.all(
      captionLines(req.prompt).map(async (line, i) => {
        const file = path.join(workDir, `caption-${i}.txt`);
        await writeFile(file, line, 'utf8');
        return file;
      }),
    );
    const inputArgs: string[] = [];
    let videoGraph: string;
    if (req.mode === 'image') {
      // A fixed name without extension: ffmpeg picks the decoder from the content, and no `%`
      // in the caller's path can be taken for an image-sequence pattern.
      const image = path.join(workDir, 'image');
      await copyFile(req.imagePath!, image);
      inputArgs.push('-i', `file:${image}`);
      videoGraph = imageModeVideoGraph(scene, captionFiles, captionFontPath);
    } else {
      videoGraph = textModeVideoGraph(scene, captionFiles, captionFontPath);
    }

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
      `${videoGraph};${audioGraph(scene)}`,
      '-map',
      '[vout]',
      '-map',
      '[aout]',
      ...VIDEO_ENCODE,
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
      String(DURATION_SECONDS),
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
    await runFfmpeg(args, req.signal, req.onProgress, req.lowPriority);
    // ffmpeg exits 0 in a few odd cases without writing (e.g. an output that got no frames).
    await stat(partialVideo);
    await stat(partialPoster);
    await rename(partialVideo, req.outputPath);
    await rename(partialPoster, req.posterPath);
    req.onProgress?.(1);
    return { durationSeconds: DURATION_SECONDS, width: WIDTH, height: HEIGHT };
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
        const fraction = Math.min(0.99, Number(match[1]) / (DURATION_SECONDS * 1e6));
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
