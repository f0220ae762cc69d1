/**
 * The bench's CPU reading (tests/helpers/measure.ts): a process's user and system time from
 * /proc, which the API rows divide by their answers.
 */
import { describe, expect, it } from 'vitest';
import { median, processCpuMicros } from '../helpers/measure.ts';

describe.skipIf(process.platform !== 'linux')('processCpuMicros', () => {
  it("reads this process's CPU as Node's own count does, in microseconds", async () => {
    const before = await processCpuMicros(process.pid);
    const node = process.cpuUsage();
    // 200 ms of CPU, however long a busy machine takes to give it.
    let spin = 0;
    for (;;) {
      const used = process.cpuUsage(node);
      if (used.user + used.system >= 200_000) break;
      spin += 1;
    }
    const counted = process.cpuUsage(node);
    const read = (await processCpuMicros(process.pid)) - before;
    expect(spin).toBeGreaterThan(0);
    // /proc counts in 10 ms ticks; the two reads are a few microseconds apart.
    expect(Math.abs(read - (counted.user + counted.system))).toBeLessThanOrEqual(30_000);
  });

  it('refuses a process that does not exist', async () => {
    await expect(processCpuMicros(2 ** 22 + 1)).rejects.toThrow();
  });
});

describe('median', () => {
  it('takes the middle value, the upper middle of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
  });
});
