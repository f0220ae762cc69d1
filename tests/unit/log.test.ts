import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { formatLogMessage, LineBatch, prettyStream } from '../../server/core/log.ts';

describe('log format', () => {
  it('LOG_FORMAT chooses; auto is JSON when stdout is not a terminal, and in production', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    // Vitest's stdout is not a terminal.
    expect(loadConfig({}).logFormat).toBe(process.stdout.isTTY ? 'pretty' : 'json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('writes one readable line per request, without the JSON fields', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = pino({ level: 'info' }, prettyStream(out, false));
    log.info(
      {
        req: { method: 'GET', url: '/pricing', id: 'req-1' },
        res: { statusCode: 200 },
        responseTime: 3.4,
      },
      'request completed',
    );
    log.warn({ release: 'r1' }, 'site build failed');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/pricing 200 3 ms$/);
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: site build failed \{"release":"r1"\}$/);
  });

  it('keeps a message that is not the access line next to the request', () => {
    const entry = {
      msg: 'request errored',
      req: { method: 'POST', url: '/api/x' },
      res: { statusCode: 500 },
    };
    expect(formatLogMessage(entry, 'msg')).toBe('POST /api/x 500 request errored');
    expect(formatLogMessage({ msg: 'hello' }, 'msg')).toBe('hello');
  });

  it('hands lines on in batches of 64 KB, or when its timer fires, and all of them when flushed', async () => {
    const writes: string[] = [];
    let syncFlushes = 0;
    const destination = {
      write: (text: string) => writes.push(text),
      flush: (done?: () => void) => done?.(),
      flushSync: () => (syncFlushes += 1),
    };
    const line = `${JSON.stringify({ msg: 'x'.repeat(150) })}\n`;
    const batch = new LineBatch(destination, 60_000);
    const perBatch = Math.ceil((64 * 1024) / line.length);
    for (let i = 0; i < perBatch - 1; i++) batch.write(line);
    expect(writes).toEqual([]);
    batch.write(line);
    expect(writes).toEqual([line.repeat(perBatch)]);
    batch.write(line);
    batch.flushSync();
    expect(writes).toEqual([line.repeat(perBatch), line]);
    expect(syncFlushes).toBe(1);
    batch.stop();

    const timed = new LineBatch(destination, 20);
    timed.write(line);
    await vi.waitFor(() => expect(writes.at(-1)).toBe(line), { timeout: 2000, interval: 5 });
    timed.stop();
  });
});
