/**
 * A refusal (4xx AppError) is made without a stack, which no log shows and which cost a sixth of
 * a /v1 404's CPU; a 5xx AppError keeps its stack, and the process's stack limit is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { AppError, notFound } from '../../server/core/errors.ts';
import { msg } from '../../server/core/api-messages.ts';

const frames = (error: Error) => (error.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));

describe('AppError', () => {
  it('takes no stack for a 4xx, and keeps name, message, status and code', () => {
    const error = notFound(msg('v1_videos.not_found'), 'VIDEO_NOT_FOUND');
    expect(error).toBeInstanceOf(AppError);
    expect(error.name).toBe('AppError');
    expect(error.message).toBe('No video with that id belongs to you.');
    expect([error.statusCode, error.code]).toEqual([404, 'VIDEO_NOT_FOUND']);
    expect(frames(error)).toEqual([]);
  });

  it('keeps the stack of a 5xx', () => {
    const error = new AppError(503, 'UNAVAILABLE', msg('v1_videos.not_found'));
    expect(frames(error).length).toBeGreaterThan(0);
  });

  it("leaves the process's stack limit as it found it, even when the message fails", () => {
    const before = Error.stackTraceLimit;
    const broken = {
      render: () => {
        throw new Error('no such message');
      },
    };
    expect(() => new AppError(400, 'BAD', broken as never)).toThrow('no such message');
    expect(Error.stackTraceLimit).toBe(before);
    expect(frames(new Error('after'))).not.toEqual([]);
  });
});
