/**
 * Issue 32, item 3: a video task's failure is stored as a key with the credits the refund
 * returned (what the task was charged), and read in the language the client asks for.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureMessage } from '../../server/domains/video/messages.ts';
import { failAndRefund } from '../../server/domains/video/service.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, requestGeneration } from '../helpers/video.ts';

describe.each(databaseKinds)('task messages on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('says the credits the task was charged, in the reader’s language', async () => {
    const { token, user } = await signInLocal(t.app, 'task-lang@example.com');
    await grantCredits(t, user.id, 100);
    const { taskId } = (
      await requestGeneration(t.app, token, { prompt: 'a fox', model: 'veo3' })
    ).json().data;
    // Charged under another price than today's: the message names what is given back.
    await t.database.db.execute(
      sql`update video_tasks set credits_charged = 23 where id = ${taskId}`,
    );
    await t.database.db.transaction((tx) => failAndRefund(tx, taskId, failureMessage('provider')));

    const read = async (lang?: string) =>
      (
        await t.app.inject({
          url: `/api/video/status/${taskId}`,
          headers: { ...bearer(token), ...(lang ? { 'accept-language': lang } : {}) },
        })
      ).json().data;
    expect(await read()).toMatchObject({
      status: 'failed',
      status_message: 'Failed',
      error_message:
        'The video service could not make this video. Please try again. Your 23 credits have been refunded.',
    });
    const chinese = await read('zh-CN');
    expect(chinese.error_message).toBe('视频服务未能生成此视频，请重试。23 积分已退回你的账户。');
    expect(chinese.status_message).toMatch(/\p{Script=Han}/u);
  });
});
