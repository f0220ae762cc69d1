/**
 * Issue 21: the blog in two languages. Each post lives at its language's address and is listed,
 * paged and fed in its language; an article names its translation (and only a real one) as its
 * alternate; the words around a post (views, date titles) follow the page's language while the
 * date itself keeps the spec's format.
 */
import { describe, expect, it } from 'vitest';
import { alternatesOf, localizePath } from '../../site/i18n/locales.ts';
import {
  articleAlternates,
  articlePath,
  blogPageHref,
  feedPath,
  slugFromPath,
  viewsLabel,
} from '../../site/lib/blog.ts';
import { postDateMarkup } from '../../site/lib/post-dates.ts';

describe('blog addresses per language', () => {
  it.each([
    [1, 'en', '/blog'],
    [2, 'en', '/blog/page/2'],
    [1, 'zh-CN', '/zh/blog'],
    [3, 'zh-CN', '/zh/blog/page/3'],
  ] as const)('list page %i in %s is %s', (page, locale, href) => {
    expect(blogPageHref(page, locale)).toBe(href);
  });

  it('puts an article at its own language’s address', () => {
    expect(articlePath({ slug: 'how-to-write-prompts', locale: 'en' })).toBe(
      '/blog/how-to-write-prompts',
    );
    expect(articlePath({ slug: 'ruhe-8-ai-shipin-tishici', locale: 'zh-CN' })).toBe(
      '/zh/blog/ruhe-8-ai-shipin-tishici',
    );
  });

  it.each([
    ['/blog/my-post', 'my-post'],
    ['/zh/blog/ruhe-tishici', 'ruhe-tishici'],
    ['/zh/blog/caf%C3%A9/', 'café'],
    ['/blog/page/2', null],
    ['/zh/blog', null],
    ['/blog/%E0%A4', null],
  ])('reads the slug of %s as %s', (pathname, slug) => {
    expect(slugFromPath(pathname)).toBe(slug);
  });

  it('gives each language its own feed', () => {
    expect(feedPath('en')).toBe('/rss.xml');
    expect(feedPath('zh-CN')).toBe('/zh/rss.xml');
  });

  it('switches the blog list between languages, but not its later pages or articles', () => {
    expect(localizePath('/blog', 'zh-CN')).toBe('/zh/blog');
    expect(localizePath('/zh/blog', 'en')).toBe('/blog');
    expect(alternatesOf('/zh/blog')).toEqual([
      { locale: 'en', path: '/blog' },
      { locale: 'zh-CN', path: '/zh/blog' },
    ]);
    // Page 2 of one language lists other posts than page 2 of the other: not the same page.
    expect(alternatesOf('/blog/page/2')).toEqual([]);
    expect(alternatesOf('/zh/blog/some-post')).toEqual([]);
  });
});

describe('articleAlternates', () => {
  it('names an article and its translation, English first, from either side', () => {
    const expected = [
      { locale: 'en', path: '/blog/how-to-write-prompts' },
      { locale: 'zh-CN', path: '/zh/blog/ruhe-tishici' },
    ];
    expect(
      articleAlternates({
        slug: 'ruhe-tishici',
        locale: 'zh-CN',
        translations: [{ locale: 'en', slug: 'how-to-write-prompts', title: 'How to' }],
      }),
    ).toEqual(expected);
    expect(
      articleAlternates({
        slug: 'how-to-write-prompts',
        locale: 'en',
        translations: [{ locale: 'zh-CN', slug: 'ruhe-tishici', title: '如何' }],
      }),
    ).toEqual(expected);
  });

  it('names none for an article without a translation', () => {
    expect(articleAlternates({ slug: 'only-english', locale: 'en', translations: [] })).toEqual([]);
  });
});

describe('texts around a post', () => {
  it.each([
    [1, 'en', '1 view'],
    [1340, 'en', '1,340 views'],
    [1, 'zh-CN', '1 次浏览'],
    [12345, 'zh-CN', '12,345 次浏览'],
  ] as const)('%i views read "%s" in %s', (count, locale, text) => {
    expect(viewsLabel(count, locale)).toBe(text);
  });

  it('writes the date the same way in both languages and names the zone in the page’s', () => {
    const instant = '2025-03-14T09:30:00.000Z';
    const english = postDateMarkup(instant, 'UTC', 'en');
    const chinese = postDateMarkup(instant, 'UTC', 'zh-CN');
    expect(english.text).toBe('2025年3月14日 09:30 UTC');
    expect(chinese.text).toBe(english.text);
    expect(english.title).toBe('Coordinated Universal Time (UTC)');
    expect(chinese.title).toBe('协调世界时（UTC）');
    expect(postDateMarkup(instant, 'Asia/Shanghai', 'zh-CN')).toMatchObject({
      text: '2025年3月14日 17:30',
      title: '你的时区（Asia/Shanghai）',
    });
    expect(postDateMarkup(instant, 'Asia/Shanghai').title).toBe('Your time zone (Asia/Shanghai)');
  });
});
