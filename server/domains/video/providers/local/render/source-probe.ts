/**
 * What an extension needs to know about the video it continues before its graph is built: how
 * long it is and whether it has sound. One ffmpeg run that only opens the file (no output: it
 * prints the container's facts and exits), with the MP4 demuxer forced and only the `file`
 * protocol allowed, as the result check reads provider videos.
 */
import { spawn } from 'node:child_process';

export interface SourceFacts {
  seconds: number;
  hasAudio: boolean;
}

/** Reads `file`'s length and audio presence with the ffmpeg at `ffmpeg`; throws if it has no video. */
export function probeSourceVideo(
  ffmpeg: string,
  file: string,
  signal?: AbortSignal,
): Promise<SourceFacts> {
  // prettier-ignore
  const args = [
    '-hide_banner', '-nostdin', '-loglevel', 'info',
    '-protocol_whitelist', 'file', '-f', 'mov', '-i', `file:${file}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
    });
    child.on('error', reject);
    // Exits 1 ("At least one output file must be specified") after printing the input's facts.
    child.on('close', () => {
      const duration = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
      if (!duration || !/Stream #\d+:\d+[^:]*: Video: /.test(stderr)) {
        const why = stderr.trim().split('\n').slice(-2).join(' | ');
        return reject(new Error(`the video to extend cannot be read: ${why}`));
      }
      resolve({
        seconds: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]),
        hasAudio: /Stream #\d+:\d+[^:]*: Audio: /.test(stderr),
      });
    });
  });
}
