/**
 * The language switch of the header and the phone menu (issue 21): a link to this page in the
 * other language, named in that language (and marked so, for screen readers). The click is
 * remembered as the visitor's choice by the layout's script (`data-locale-choice`). Where it
 * leads is the layout's to say (BaseLayout: this page's version in the other language, or for a
 * blog article without one, that language's blog); pages with neither have no switch.
 */
import { AUTONYMS, otherLocale, type Locale } from '../../i18n/locales.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

interface LanguageLinkProps {
  /** Where the switch leads; null or absent: no switch. */
  href?: string | null;
  locale: Locale;
  className?: string;
}

export default function LanguageLink({ href, locale, className = '' }: LanguageLinkProps) {
  if (!href) return null;
  const other = otherLocale(locale);
  return (
    <a
      className={`language-link ${className}`.trim()}
      href={href}
      hrefLang={other}
      lang={other}
      data-locale-choice={other}
    >
      <Icon icon={icons.globe} />
      <span>{AUTONYMS[other]}</span>
    </a>
  );
}
