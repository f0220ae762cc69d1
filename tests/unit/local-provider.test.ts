/**
 * The local provider's own rules (the renderer itself is tests/unit/local-renderer.test.ts): a
 * prompt matching LOCAL_RENDER_FAIL_PATTERN fails at once as a provider failure (it never takes a
 * render slot, so it never waits in the local queue), a job whose files are gone is failed (not
 * an error the worker would retry until the deadline), and job ids are checked before any path
 * is built from them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalVideoProvider } from '../../server/domains/video/providers/local/adapter.ts';

describe('local video provider', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'local-provider-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('fails a prompt matching the fail pattern at once, as a provider failure', async () => {
    const provider = createLocalVideoProvider({ jobsDir: dir, failPattern: /^FAIL:/, renders: 1 });
    const job = await provider.submit({
      prompt: 'FAIL: on purpose',
      mode: 'text',
      model: 'local',
      taskId: 'task',
      deadlineAt: new Date(Date.now() + 60_000),
    });
    expect(provider.requestIdOf(job)).toBe(job);
    expect(await provider.poll(job)).toMatchObject({
      state: 'failed',
      kind: 'provider',
      detail: expect.stringContaining('LOCAL_RENDER_FAIL_PATTERN'),
    });
  });

  it('fails a job whose files are gone (a worker killed before writing them) instead of erroring', async () => {
    const provider = createLocalVideoProvider({ jobsDir: dir });
    const lost = 'local-00000000-0000-4000-8000-000000000000';
    expect(await provider.poll(lost)).toEqual({
      state: 'failed',
      kind: 'provider',
      detail: `the local job ${lost} was lost`,
    });
  });

  it('refuses a job id that is not its own before touching the disk', async () => {
    const provider = createLocalVideoProvider({ jobsDir: dir });
    await expect(provider.poll('../../etc')).rejects.toThrow(/not a local job id/);
  });
});
