/**
 * The article's published translations (issue 21): a link to each, under the article header,
 * with the other language's title marked in its language. Clicking one is a choice of language,
 * remembered like the header's switch (`data-locale-choice`). The lead text names the other
 * language, which holds while the site has two.
 */
import type { PostTranslation } from '../../../shared/api/blog.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import { postPath } from '../../lib/blog.ts';
import Icon from '../shared/Icon.tsx';

interface ArticleTranslationsProps {
  locale: Locale;
  translations: PostTranslation[];
}

export default function ArticleTranslations({ locale, translations }: ArticleTranslationsProps) {
  if (translations.length === 0) return null;
  return (
    <aside className="article-translations" aria-label={m.blog_translation_label(locale)}>
      <Icon icon={icons.globe} />
      <ul role="list">
        {translations.map((translation) => (
          <li key={translation.locale}>
            <a
              href={postPath(translation.slug, translation.locale)}
              hrefLang={translation.locale}
              data-locale-choice={translation.locale}
              data-testid="article-translation"
            >
              <span>{m.blog_translation_lead(locale)}</span>{' '}
              <cite lang={translation.locale}>{translation.title}</cite>
            </a>
          </li>
        ))}
      </ul>
    </aside>
  );
}
