import { describe, expect, it, vi } from 'vitest';
import { createPublisher } from '../../server/domains/site-build/publisher.ts';
import type { ReleaseManifest } from '../../server/domains/site-build/release.ts';
import type { SiteBuilder } from '../../server/domains/site-build/service.ts';

const manifest = { id: 'r1' } as ReleaseManifest;

function setup(failures: number) {
  const errors: Array<{ obj: { err?: unknown }; msg: string | undefined }> = [];
  let calls = 0;
  const builder = {
    build: () => Promise.resolve(manifest),
    ensureCurrent: async () => {
      calls += 1;
      if (calls <= failures) throw new Error(`astro build exited with 1: boom ${calls}`);
      return manifest;
    },
  } as SiteBuilder;
  const publisher = createPublisher({
    builder,
    writeSnapshot: async () => {},
    debounceMs: 10,
    log: { info: () => {}, error: (obj, msg) => errors.push({ obj, msg }) },
  });
  return { publisher, errors, calls: () => calls };
}

describe('publisher.ensureCurrentRetrying (start-up never ends the process on a failed build)', () => {
  it('logs each failure with its cause and tries again, with a growing pause, until one is live', async () => {
    const { publisher, errors, calls } = setup(2);
    const started = Date.now();
    await expect(publisher.ensureCurrentRetrying({ retryMs: 20, maxRetryMs: 1000 })).resolves.toBe(
      manifest,
    );
    expect(calls()).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(20 + 40 - 5);
    expect(errors.map((e) => e.msg)).toEqual([
      'site build failed; trying again in 0.02 s (the API keeps serving)',
      'site build failed; trying again in 0.04 s (the API keeps serving)',
    ]);
    expect((errors[0]!.obj.err as Error).message).toBe('astro build exited with 1: boom 1');
    expect(publisher.status().error).toBeNull();
  });

  it('shows the last failure in the build status while it retries, and stops on abort', async () => {
    const { publisher, calls } = setup(Number.POSITIVE_INFINITY);
    const closing = new AbortController();
    const run = publisher.ensureCurrentRetrying({ retryMs: 10, signal: closing.signal });
    await vi.waitFor(() => expect(calls()).toBeGreaterThanOrEqual(2));
    expect(publisher.status().error).toMatch(/^astro build exited with 1: boom \d+$/);
    closing.abort();
    await expect(run).resolves.toBeNull();
    // Nothing tries again after the abort: five retry periods pass without a call.
    const tries = calls();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls()).toBe(tries);
  });
});
