/**
 * Issue 21: the site's messages. Both languages have every key, with the same parameters; the
 * compiled module is current; the islands already moved to messages render no text of their own;
 * and the paths of the two languages map onto each other.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  committedMessageFiles,
  compiledMessageFiles,
  readMessageSources,
} from '../../scripts/messages.ts';
import { checkMessages, compileMessages, paramsOf } from '../../site/i18n/compile-messages.ts';
import {
  alternatesOf,
  basePath,
  localeOfPath,
  localizePath,
  siteLocaleFor,
} from '../../site/i18n/locales.ts';
import * as m from '../../site/i18n/messages.ts';
import { BILLING_MESSAGES } from '../../shared/billing.ts';
import { GENERATE_MESSAGES } from '../../shared/video.ts';

describe('message files', () => {
  const sources = readMessageSources();

  it('have the same keys and parameters in English and Chinese, none empty', () => {
    expect(checkMessages(sources)).toEqual([]);
    expect(Object.keys(sources['zh-CN']).sort()).toEqual(Object.keys(sources.en).sort());
  });

  it('report a key missing in either language, an empty one and a parameter that differs', () => {
    const broken = {
      en: { only_english: 'Hi', empty_zh: 'Text', counted: '{count} credits' },
      'zh-CN': { only_chinese: '你好', empty_zh: ' ', counted: '{total} 积分' },
    };
    expect(checkMessages(broken)).toEqual([
      'only_english: missing in messages/zh-CN.json',
      'empty_zh: empty in messages/zh-CN.json',
      'counted: parameters differ between en and zh-CN',
      'only_chinese: missing in messages/en.json',
    ]);
    expect(() => compileMessages(broken)).toThrow(/not consistent/);
  });

  it('are compiled: site/i18n/messages.ts and messages/ are what `npm run messages` writes', async () => {
    const expected = await compiledMessageFiles();
    const committed = committedMessageFiles();
    expect(Object.keys(committed).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, text] of Object.entries(expected)) expect(committed[file], file).toBe(text);
  });

  it('compile to functions of the language and the parameters', () => {
    expect(m.nav_pricing('en')).toBe('Pricing');
    expect(m.nav_pricing('zh-CN')).toBe('价格');
    expect(m.footer_rights('en', { year: 2026, brand: 'Veo3 Studio' })).toBe(
      '© 2026 Veo3 Studio. All rights reserved.',
    );
    expect(m.gallery_status_category('zh-CN', { shown: 4, total: 6, category: '动画' })).toBe(
      '显示 6 个动画视频中的 4 个',
    );
    expect(paramsOf('Showing {shown} of {total} {shown}')).toEqual(['shown', 'total']);
  });

  it('say in English exactly what the server says, for the sentences both sides show', () => {
    expect(m.generator_prompt_required('en')).toBe(GENERATE_MESSAGES.promptRequired);
    expect(m.generator_image_required('en')).toBe(GENERATE_MESSAGES.imageRequired);
    expect(m.generator_sign_in_required('en')).toBe(GENERATE_MESSAGES.signInRequired);
    expect(m.generator_not_enough_credits_detail('en', { model: 'Veo 3', cost: 17, have: 2 })).toBe(
      GENERATE_MESSAGES.notEnoughCredits('Veo 3', 17, 2),
    );
    expect(m.pricing_login_required('en')).toBe(BILLING_MESSAGES.signInRequired);
    expect(m.pricing_already_subscribed('en')).toBe(BILLING_MESSAGES.alreadySubscribed);
  });

  it("keep the spec's English strings exactly", () => {
    expect(sources.en).toMatchObject({
      loading_app: '正在加载应用...',
      login_failed: 'Login failed, please try again',
      gallery_more: 'More Videos',
      gallery_empty: 'There are no videos in this category',
      gallery_category_talk_show: 'Talk Show',
      footer_refund: 'Refund Policy',
      header_login: 'Login',
    });
  });
});

/**
 * Islands whose every string is a message. A file joins this list when it is moved to messages;
 * from then on, text written into its JSX (or into a label, title, placeholder or alt) fails here.
 * Every public island is here; the tools of editors and operators (site/islands/blog-admin,
 * site/islands/admin) have no Chinese pages and stay in English.
 */
const MESSAGE_ONLY_ISLANDS = [
  'site/islands/header/Header.tsx',
  'site/islands/header/NavMenu.tsx',
  'site/islands/header/MobileMenu.tsx',
  'site/islands/header/UserMenu.tsx',
  'site/islands/header/parts.tsx',
  'site/islands/header/LanguageLink.tsx',
  'site/islands/LoginPanel.tsx',
  'site/islands/LoadingScreen.tsx',
  'site/islands/shared/SignInLink.tsx',
  'site/islands/shared/GoogleSignInHost.tsx',
  'site/islands/shared/DownloadButton.tsx',
  'site/islands/Generator.tsx',
  'site/islands/generator/ModeTabs.tsx',
  'site/islands/generator/ImageUpload.tsx',
  'site/islands/generator/ResultPanel.tsx',
  'site/islands/Pricing.tsx',
  'site/islands/pricing/PlanAction.tsx',
  'site/islands/pricing/PackAction.tsx',
  'site/islands/pricing/PaymentDialog.tsx',
  'site/islands/pricing/CancelDialog.tsx',
  'site/islands/pricing/StatusBanner.tsx',
  'site/islands/pricing/CycleSwitch.tsx',
  'site/islands/account/ConfirmEmail.tsx',
  'site/islands/account/ResetPasswordForm.tsx',
  'site/islands/account/AccountSettings.tsx',
  'site/islands/account-api/AddEndpointForm.tsx',
  'site/islands/account-api/ApiAccess.tsx',
  'site/islands/account-api/ApiKeys.tsx',
  'site/islands/account-api/ConfirmDialog.tsx',
  'site/islands/account-api/CreateKeyForm.tsx',
  'site/islands/account-api/Deliveries.tsx',
  'site/islands/account-api/DeliveriesToggle.tsx',
  'site/islands/account-api/RequestSecret.tsx',
  'site/islands/account-api/ShownOnce.tsx',
  'site/islands/account-api/Webhooks.tsx',
  'site/islands/account-api/parts.tsx',
  'site/islands/account/CloseAccountDialog.tsx',
  'site/islands/History.tsx',
  'site/islands/history/HistoryCard.tsx',
  'site/islands/history/Pager.tsx',
  'site/islands/history/DeleteVideoDialog.tsx',
  'site/islands/blog/ArticleView.tsx',
  'site/islands/blog/ArticleShell.tsx',
  'site/islands/blog/ArticleTranslations.tsx',
  'site/islands/blog/ViewCount.tsx',
  // Shared parts of the public islands: their callers pass the words in.
  'site/islands/shared/ConfirmButtons.tsx',
  'site/islands/shared/Dialog.tsx',
  'site/islands/header/google-root.tsx',
  'site/islands/shared/Icon.tsx',
];

const TEXT_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label']);

/** Human text written into an island's JSX: text nodes and text attributes with letters. */
function literalTexts(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && /\p{L}/u.test(node.getText())) found.push(node.getText().trim());
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText())) {
      const init = node.initializer;
      const literal =
        init && ts.isStringLiteral(init)
          ? init
          : init && ts.isJsxExpression(init) && init.expression
            ? init.expression
            : undefined;
      if (literal && (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal))) {
        if (/\p{L}/u.test(literal.text)) found.push(`${node.name.getText()}="${literal.text}"`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('islands moved to messages', () => {
  it.each(MESSAGE_ONLY_ISLANDS)('%s renders no text of its own', (file) => {
    expect(literalTexts(file)).toEqual([]);
  });

  it('the check finds text written into JSX', () => {
    // A file of the list before it moved to messages (git history), as a fixture:
    const fixture = 'tests/unit/fixtures/island-with-literals.tsx';
    expect(literalTexts(fixture)).toEqual(['Sign out', 'aria-label="Account menu"', 'Login']);
  });
});

describe('localized paths', () => {
  it('map English paths to /zh/ and back, for pages that exist in both', () => {
    expect(localizePath('/', 'zh-CN')).toBe('/zh');
    expect(localizePath('/login', 'zh-CN')).toBe('/zh/login');
    expect(localizePath('/terms-of-service#refunds', 'zh-CN')).toBe('/zh/terms-of-service#refunds');
    expect(localizePath('/zh/login?next=1', 'en')).toBe('/login?next=1');
    expect(basePath('/zh')).toBe('/');
    expect(localeOfPath('/zh/privacy-policy')).toBe('zh-CN');
    expect(localeOfPath('/zhuanti')).toBe('en');
  });

  it('keep links to pages with no Chinese version on the English page', () => {
    expect(localizePath('/blog/some-post', 'zh-CN')).toBe('/blog/some-post');
    expect(alternatesOf('/blog/some-post')).toEqual([]);
  });

  it('name both versions of a page that has them', () => {
    expect(alternatesOf('/zh/login')).toEqual([
      { locale: 'en', path: '/login' },
      { locale: 'zh-CN', path: '/zh/login' },
    ]);
  });

  it('pick the site language for a browser language', () => {
    expect(siteLocaleFor('zh-CN')).toBe('zh-CN');
    expect(siteLocaleFor('zh-Hant-TW')).toBe('zh-CN');
    expect(siteLocaleFor('en-GB')).toBe('en');
    expect(siteLocaleFor('de')).toBe('en');
  });
});
