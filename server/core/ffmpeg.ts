/**
 * Which ffmpeg reads files that come from outside (a provider's video: the result check and the
 * poster frame; issue 34, finding 2): FFMPEG_PATH, else the system's `/usr/bin/ffmpeg` (Debian's
 * in deploy/Dockerfile, kept patched by the distribution), else the static build bundled by
 * @ffmpeg-installer (from 2018), only when neither exists. Start-up logs the one chosen and its
 * version. The local renderer keeps the bundled build for its own inputs, so its clips stay the
 * same bytes on every machine (providers/local/renderer.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import bundled from '@ffmpeg-installer/ffmpeg';

export interface FfmpegChoice {
  path: string;
  /** Why this one: the variable, the system's, or the bundled fallback. */
  source: 'FFMPEG_PATH' | 'system' | 'bundled';
}

const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';

let chosen: FfmpegChoice | null = null;

/** Picks the binary (start-up calls it with FFMPEG_PATH, or null). */
export function chooseFfmpeg(configured: string | null): FfmpegChoice {
  chosen = configured
    ? { path: configured, source: 'FFMPEG_PATH' }
    : existsSync(SYSTEM_FFMPEG)
      ? { path: SYSTEM_FFMPEG, source: 'system' }
      : { path: bundled.path, source: 'bundled' };
  return chosen;
}

/** The ffmpeg for outside files (the system's or bundled one if start-up chose none). */
export function ffmpegForInputs(): string {
  return (chosen ?? chooseFfmpeg(null)).path;
}

/** The first line of `ffmpeg -version` ("ffmpeg version 5.1.6-0+deb12u1 …"), for the log. */
function ffmpegVersion(path: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(path, ['-hide_banner', '-version'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', (err) => resolve(`not runnable: ${err.message}`));
    child.on('close', () => resolve(out.split('\n')[0]?.trim() || 'unknown version'));
  });
}

/** Chooses the binary from the config and logs which one and its version (start-up's first lines). */
export async function logFfmpeg(
  config: { video: { ffmpegPath: string | null } },
  log: { info(obj: object, msg: string): void },
): Promise<void> {
  const { path, source } = chooseFfmpeg(config.video.ffmpegPath);
  const version = await ffmpegVersion(path);
  log.info(
    { ffmpeg: path, source, version },
    `ffmpeg for provider videos: ${path} (${source}), ${version}`,
  );
}
