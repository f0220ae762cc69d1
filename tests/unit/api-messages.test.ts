/**
 * Issue 32, item 3: every sentence the API sends a person is a key of one catalogue,
 * messages/api/{locale}.json, with named ICU parameters. These tests fail on a key missing in a
 * language, a parameter one language uses and the other does not (or the type does not declare),
 * a key the server names that the catalogue lacks, a catalogue key nothing uses, and a sentence
 * written inline in server/ (tests/helpers/api-messages.ts finds them).
 */
import { describe, expect, it } from 'vitest';
import { renderPayload } from '../../server/core/api-language.ts';
import {
  API_CATALOGUES,
  msg,
  renderMessage,
  type ApiText,
} from '../../server/core/api-messages.ts';
import { localeFromAcceptLanguage, LOCALES } from '../../shared/locales.ts';
import { ADMIN_MESSAGES } from '../../shared/admin.ts';
import { BILLING_MESSAGES } from '../../shared/billing.ts';
import { BLOG_MESSAGES } from '../../shared/blog.ts';
import { IMAGE_TYPE_MESSAGE } from '../../shared/images.ts';
import { GENERATE_MESSAGES, HISTORY_MESSAGES } from '../../shared/video.ts';
import { apiMessageKeysFile, messageArguments } from '../../scripts/api-messages.ts';
import { readFileSync } from 'node:fs';
import { scanFile, scanServer } from '../helpers/api-messages.ts';

const en = API_CATALOGUES.en;
const keys = Object.keys(en);
const scan = scanServer();

describe('the API message catalogue', () => {
  it.each(LOCALES)('%s has every key and no other', (locale) => {
    expect(Object.keys(API_CATALOGUES[locale]).sort()).toEqual([...keys].sort());
  });

  it.each(keys)('%s: every language uses the same parameters', (key) => {
    const english = [...messageArguments(en[key]!, 'en').keys()].sort();
    for (const locale of LOCALES) {
      expect([...messageArguments(API_CATALOGUES[locale][key]!, locale).keys()].sort()).toEqual(
        english,
      );
    }
  });

  it('types each key with the parameters of its sentence (api-message-keys.ts is current)', async () => {
    const written = readFileSync(
      new URL('../../server/core/api-message-keys.ts', import.meta.url),
      'utf8',
    );
    expect(written).toBe(await apiMessageKeysFile());
  });

  it('has every key the server names', () => {
    const missing = scan.keys.filter((key) => !(key.text in en));
    expect(missing).toEqual([]);
  });

  it('holds no key the server never names', () => {
    const used = new Set(scan.keys.map((key) => key.text));
    expect(keys.filter((key) => !used.has(key))).toEqual([]);
  });

  it('leaves no sentence written inline in server/', () => {
    expect(scan.inline).toEqual([]);
  });

  it('finds an inline sentence where the server would write one', () => {
    // The scan itself, on a file that still writes sentences: it must see them.
    const old = scanFile('tests/fixtures/api-messages/inline.ts.txt');
    expect(old.inline.map((m) => m.text)).toEqual([
      'Nothing here.',
      'The field X1 is wrong.',
      'Signed out.',
      'Please wait.',
    ]);
    expect(old.keys.map((k) => k.text)).toEqual(['accounts.signed_out', 'request.invalid_json']);
  });

  it('keeps the spec’s exact English texts that the site shows too', () => {
    const english = (text: ApiText) => text.render('en');
    expect(english(msg('billing.sign_in_required'))).toBe(BILLING_MESSAGES.signInRequired);
    expect(english(msg('billing.already_subscribed'))).toBe(BILLING_MESSAGES.alreadySubscribed);
    expect(english(msg('blog.not_found'))).toBe(BLOG_MESSAGES.notFound);
    expect(english(msg('blog.no_permission'))).toBe(BLOG_MESSAGES.noPermission);
    expect(english(msg('blog.featured_image'))).toBe(BLOG_MESSAGES.featuredImage);
    expect(english(msg('images.invalid_type'))).toBe(IMAGE_TYPE_MESSAGE);
    expect(english(msg('video.prompt_required'))).toBe(GENERATE_MESSAGES.promptRequired);
    expect(english(msg('video.image_required'))).toBe(GENERATE_MESSAGES.imageRequired);
    expect(english(msg('video.sign_in_required'))).toBe(GENERATE_MESSAGES.signInRequired);
    expect(english(msg('video.history_sign_in_required'))).toBe(HISTORY_MESSAGES.signInRequired);
    expect(english(msg('video.not_enough_credits', { model: 'Veo 3', cost: 17, balance: 3 }))).toBe(
      GENERATE_MESSAGES.notEnoughCredits('Veo 3', 17, 3),
    );
    expect(english(msg('admin.invalid_credentials'))).toBe(ADMIN_MESSAGES.invalidCredentials);
    expect(english(msg('admin.not_configured'))).toBe(ADMIN_MESSAGES.notConfigured);
    for (const minutes of [1, 2, 15]) {
      expect(english(msg('admin.locked', { minutes }))).toBe(ADMIN_MESSAGES.locked(minutes));
    }
    expect(english(msg('admin.overdraft', { balance: 5 }))).toBe(ADMIN_MESSAGES.overdraft(5));
  });

  it('renders quotes, braces and values as the sentences have them', () => {
    expect(renderMessage('validation.required', { field: 'email' }, 'en')).toBe(
      "The field 'email' is required.",
    );
    expect(renderMessage('data.where_list', { column: 'status' }, 'en')).toBe(
      'where.status is a list; to match any of several values write {"status":{"in":[...]}}.',
    );
    expect(renderMessage('data.where_required', { method: 'PUT' }, 'en')).toContain(
      '{"id":"<uuid>"}',
    );
    expect(renderMessage('credits.not_enough', { needed: 17, balance: 3 }, 'zh-CN')).toBe(
      '积分不足：需要 17 积分，当前余额为 3。',
    );
  });

  it('renders a message inside a message in the same language', () => {
    const hint = msg('data.hint.posts');
    const refusal = msg('data.not_allowed_hint', {
      verb: msg('data.verb.insert'),
      table: msg('data.table.posts'),
      hint,
    });
    expect(refusal.render('en')).toBe(
      'You cannot add posts through this API. Posts are written by blog editors.',
    );
    expect(refusal.render('zh-CN')).toBe('不能通过此 API 添加文章。文章由博客编辑撰写。');
    // Anything that serializes it without the language hook (a log line) gets English.
    expect(JSON.stringify({ message: hint })).toBe(
      JSON.stringify({ message: 'Posts are written by blog editors.' }),
    );
  });

  it("renders a video task's status and failure in an answer's data", () => {
    const answer = renderPayload(
      {
        success: true,
        data: {
          status: 'failed',
          status_message: msg('task.failed'),
          error_message: msg('task.failure.deadline', { credits: 20 }),
        },
      },
      'zh-CN',
    );
    expect(answer).toMatchObject({
      data: {
        status: 'failed',
        error_message: '视频未能按时生成完成，已被终止。20 积分已退回你的账户。',
      },
    });
    expect((answer.data as { status_message: string }).status_message).toMatch(/\p{Script=Han}/u);
  });
});

describe('Accept-Language', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['zh-CN', 'zh-CN'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en'],
    ['de-DE,zh;q=0.5', 'zh-CN'],
    ['fr, de', 'en'],
    ['en;q=0.2, zh;q=0.9', 'zh-CN'],
    ['zh;q=0', 'en'],
  ] as const)('%s → %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});
