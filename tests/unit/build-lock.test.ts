import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withProjectBuildLock } from '../../server/domains/site-build/build-lock.ts';

describe('withProjectBuildLock', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'build-lock-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('runs two builds of one checkout one after the other, never together', async () => {
    const events: string[] = [];
    const build = (name: string) =>
      withProjectBuildLock(root, async () => {
        events.push(`${name} start`);
        await sleep(200);
        events.push(`${name} end`);
      });
    await Promise.all([build('a'), build('b')]);
    expect(events).toHaveLength(4);
    expect(events[0]!.split(' ')[0]).toBe(events[1]!.split(' ')[0]);
    expect(events[2]!.split(' ')[0]).toBe(events[3]!.split(' ')[0]);
  });

  it('takes over a lock left by a process that died, and releases it after a failure', async () => {
    const dir = path.join(root, 'node_modules', '.cache');
    await mkdir(dir, { recursive: true });
    // pid 2^22 + 1 is above Linux's pid_max: no such process.
    await writeFile(path.join(dir, 'astro-build.lock'), String(4_194_305));
    await expect(
      withProjectBuildLock(root, async () => {
        throw new Error('astro build exited with 1');
      }),
    ).rejects.toThrow('exited with 1');
    await expect(withProjectBuildLock(root, async () => 'built')).resolves.toBe('built');
  });
});
