/**
 * Issue 21: API messages in the client's language. Every sentence the server can answer with
 * (tests/helpers/api-messages.ts reads them from the source) has its Chinese, the catalogue holds
 * nothing the server no longer says, and Accept-Language picks the language.
 */
import { describe, expect, it } from 'vitest';
import { translateApiMessage, translatePayload } from '../../server/core/api-language.ts';
import { API_MESSAGES_ZH } from '../../server/core/api-messages-zh.ts';
import { localeFromAcceptLanguage } from '../../shared/locales.ts';
import { apiMessages } from '../helpers/api-messages.ts';

const messages = apiMessages();

describe('the Chinese of the API', () => {
  it('finds the messages where the code writes them', () => {
    const texts = new Set(messages.map((m) => m.text));
    expect(texts).toContain('Please login before purchasing');
    expect(texts).toContain('Not enough credits: this needs X1 and the balance is X2.');
    expect(texts).toContain("The field 'X1' is required.");
    expect(messages.length).toBeGreaterThan(150);
  });

  it.each(messages.map((m) => [m.where, m.text] as const))('%s has Chinese: %s', (_where, text) => {
    const chinese = translateApiMessage(text, 'zh-CN');
    expect(chinese).not.toBe(text);
    expect(chinese).toMatch(/\p{Script=Han}/u);
    expect(translateApiMessage(text, 'en')).toBe(text);
  });

  it('holds no sentence the server no longer says', () => {
    const said = new Set(messages.filter((m) => !m.template).map((m) => m.text));
    expect(Object.keys(API_MESSAGES_ZH).filter((key) => !said.has(key))).toEqual([]);
  });

  it('fills values into a sentence that has them', () => {
    expect(
      translateApiMessage('Not enough credits: this needs 17 and the balance is 3.', 'zh-CN'),
    ).toMatch(/17[\s\S]*3|3[\s\S]*17/);
  });

  it("translates a video task's status and failure in an answer's data", () => {
    const answer = translatePayload(
      {
        success: true,
        data: { status: 'processing', status_message: 'Generating video', error_message: null },
      },
      'zh-CN',
    );
    expect(answer).toMatchObject({ data: { status: 'processing', error_message: null } });
    expect((answer.data as { status_message: string }).status_message).toMatch(/\p{Script=Han}/u);
  });

  it('leaves a sentence it does not know in English', () => {
    expect(translateApiMessage('A sentence nobody wrote.', 'zh-CN')).toBe(
      'A sentence nobody wrote.',
    );
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
