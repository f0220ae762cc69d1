/**
 * Which ffmpeg reads providers' videos (issue 34, finding 2; server/core/ffmpeg.ts): FFMPEG_PATH,
 * else the system's /usr/bin/ffmpeg, else the bundled build; start-up logs the choice and version.
 */
import { existsSync } from 'node:fs';
import bundled from '@ffmpeg-installer/ffmpeg';
import { describe, expect, it } from 'vitest';
import { chooseFfmpeg, ffmpegForInputs, logFfmpeg } from '../../server/core/ffmpeg.ts';

describe('the ffmpeg for providers’ videos', () => {
  it('is FFMPEG_PATH when set', () => {
    expect(chooseFfmpeg('/opt/ffmpeg/bin/ffmpeg')).toEqual({
      path: '/opt/ffmpeg/bin/ffmpeg',
      source: 'FFMPEG_PATH',
    });
    expect(ffmpegForInputs()).toBe('/opt/ffmpeg/bin/ffmpeg');
  });

  it("is the system's when there is one, else the bundled build", () => {
    const choice = chooseFfmpeg(null);
    if (existsSync('/usr/bin/ffmpeg')) {
      expect(choice).toEqual({ path: '/usr/bin/ffmpeg', source: 'system' });
    } else {
      expect(choice).toEqual({ path: bundled.path, source: 'bundled' });
    }
  });

  it('is logged with its version at start-up', async () => {
    const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    await logFfmpeg(
      { video: { ffmpegPath: null } },
      { info: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(
      /^ffmpeg for provider videos: \S+ \((system|bundled)\), ffmpeg version /,
    );
    expect(lines[0]!.obj).toMatchObject({ source: expect.stringMatching(/system|bundled/) });
  });
});
