/**
 * The media store: finished videos live under DATA_DIR/media with unguessable names and are
 * served at /media/… (with range requests). Provider URLs never reach the client.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

export const MEDIA_PREFIX = '/media/';

/** Runs ffmpeg with an argument list (never a shell) and rejects with its stderr tail. */
export function runFfmpeg(args: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg.path, ['-hide_banner', '-loglevel', 'error', ...args], {
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

export function createMediaStore(dataDir: string) {
  const dir = path.join(dataDir, 'media');
  const tmpDir = path.join(dataDir, 'tmp');

  return {
    dir,

    /** A fresh temporary path for a download or render in progress. */
    async tempPath(ext: string): Promise<string> {
      await mkdir(tmpDir, { recursive: true });
      return path.join(tmpDir, `${randomBytes(12).toString('hex')}${ext}`);
    },

    /**
     * Moves a finished MP4 into the store under a new random name and makes its poster frame.
     * Returns the public URLs.
     */
    async publish(videoFile: string): Promise<{ resultUrl: string; posterUrl: string | null }> {
      await mkdir(dir, { recursive: true });
      const info = await stat(videoFile);
      if (info.size === 0) throw new Error('the video file is empty');
      const name = randomBytes(16).toString('hex');
      const video = path.join(dir, `${name}.mp4`);
      try {
        await rename(videoFile, video);
      } catch {
        await copyFile(videoFile, video); // across file systems
        await rm(videoFile, { force: true });
      }
      let posterUrl: string | null = `${MEDIA_PREFIX}${name}.jpg`;
      try {
        await runFfmpeg([
          '-ss',
          '1',
          '-i',
          video,
          '-frames:v',
          '1',
          '-q:v',
          '3',
          '-y',
          path.join(dir, `${name}.jpg`),
        ]);
      } catch {
        posterUrl = null; // a video without a poster still plays
      }
      return { resultUrl: `${MEDIA_PREFIX}${name}.mp4`, posterUrl };
    },
  };
}

export type MediaStore = ReturnType<typeof createMediaStore>;
