/**
 * The video domain's use of the media store (server/core/media-store): finished videos and their
 * poster frames under `media/{random}.mp4|jpg` (served at /media/…, with range requests), and
 * image-mode uploads under `uploads/{taskId}.png`, read by whichever worker renders the task.
 * Downloads and renders happen in a local temporary folder (ffmpeg needs a file); the result is
 * streamed into the store from there. Provider URLs never reach the client.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ffmpegForInputs } from '../../core/ffmpeg.ts';
import { MEDIA_KEYS, type MediaStore } from '../../core/media-store/types.ts';

/** The public path of finished videos and posters; the key is the path without its first slash. */
export const MEDIA_PREFIX = '/media/';

/**
 * A customer's result and poster: never changed under their random name, but deleted when the
 * customer asks (issue 34), so no shared cache keeps them and a browser for an hour at most. The
 * same header is stored with the object, for a bucket or CDN that serves it.
 */
export const USER_MEDIA_CACHE = 'private, max-age=3600';

/** Runs ffmpeg with an argument list (never a shell) and rejects with its stderr tail. */
function runFfmpeg(args: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegForInputs(), ['-hide_banner', '-loglevel', 'error', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${stderr}`)),
    );
  });
}

/** The store key of an image-mode upload (`video_tasks.input_image` holds `{taskId}.png`). */
const uploadKey = (inputImage: string) => `${MEDIA_KEYS.uploads}${inputImage}`;

/** The upload names of a task's end frame and reference images (issue 35), beside its first. */
export const LAST_FRAME_PART = '-last';
export const referencePart = (i: number) => `-ref${i + 1}`;

/** Every upload a task keeps until it ends: the first frame, an end frame, reference images. */
export function taskUploads(task: {
  id: string;
  inputImage: string | null;
  options: { lastFrame: boolean; referenceImages: number } | null;
}): string[] {
  const names = task.inputImage ? [task.inputImage] : [];
  if (task.options?.lastFrame) names.push(`${task.id}${LAST_FRAME_PART}.png`);
  for (let i = 0; i < (task.options?.referenceImages ?? 0); i++)
    names.push(`${task.id}${referencePart(i)}.png`);
  return names;
}

export function createVideoMedia(store: MediaStore, dataDir: string) {
  const tmpDir = path.join(dataDir, 'tmp');
  const tempPath = async (ext: string): Promise<string> => {
    await mkdir(tmpDir, { recursive: true });
    return path.join(tmpDir, `${randomBytes(12).toString('hex')}${ext}`);
  };

  return {
    store,

    /** A fresh local temporary path for a download or render in progress. */
    tempPath,

    /**
     * Stores a finished MP4 under a new random name, with its poster frame, and returns the
     * public paths. The local file is left for the caller to remove.
     */
    async publish(videoFile: string): Promise<{ resultUrl: string; posterUrl: string | null }> {
      const info = await stat(videoFile);
      if (info.size === 0) throw new Error('the video file is empty');
      const name = randomBytes(16).toString('hex');
      const poster = await tempPath('.jpg');
      let posterUrl: string | null = `${MEDIA_PREFIX}${name}.jpg`;
      try {
        // Our own checked MP4 (result-check.ts): read as one, from the local file only.
        // prettier-ignore
        await runFfmpeg([
          '-protocol_whitelist', 'file', '-f', 'mov', '-ss', '1', '-i', videoFile,
          '-frames:v', '1', '-q:v', '3', '-y', poster,
        ]);
        await store.put(
          `${MEDIA_KEYS.media}${name}.jpg`,
          { file: poster },
          {
            contentType: 'image/jpeg',
            cacheControl: USER_MEDIA_CACHE,
          },
        );
      } catch {
        posterUrl = null; // a video without a poster still plays
      } finally {
        await rm(poster, { force: true });
      }
      await store.put(
        `${MEDIA_KEYS.media}${name}.mp4`,
        { file: videoFile },
        {
          contentType: 'video/mp4',
          cacheControl: USER_MEDIA_CACHE,
        },
      );
      return { resultUrl: `${MEDIA_PREFIX}${name}.mp4`, posterUrl };
    },

    /**
     * Keeps an upload (already re-encoded PNG) until its task ends: the first frame, or with
     * `part` an end frame or a reference image (names from taskUploads).
     */
    async saveUpload(taskId: string, png: Buffer, part = ''): Promise<string> {
      const inputImage = `${taskId}${part}.png`;
      await store.put(uploadKey(inputImage), png, { contentType: 'image/png' });
      return inputImage;
    },

    /** An image-mode upload's bytes (at most 10 MB: read whole), from wherever it was stored. */
    async readUpload(inputImage: string): Promise<Buffer> {
      const object = await store.get(uploadKey(inputImage));
      if (!object) throw new Error(`the task's image ${inputImage} is not in the media store`);
      return buffer(object.body);
    },

    async removeUpload(inputImage: string): Promise<void> {
      await store.delete(uploadKey(inputImage));
    },

    /** A finished video of ours (`/media/….mp4`), whole: the input of an extension. */
    async readResult(resultUrl: string): Promise<Buffer> {
      if (!resultUrl.startsWith(MEDIA_PREFIX) || !resultUrl.endsWith('.mp4'))
        throw new Error(`${resultUrl} is not a video of the media store`);
      const object = await store.get(`${MEDIA_KEYS.media}${resultUrl.slice(MEDIA_PREFIX.length)}`);
      if (!object) throw new Error(`the video ${resultUrl} is not in the media store`);
      return buffer(object.body);
    },
  };
}

export type VideoMedia = ReturnType<typeof createVideoMedia>;
