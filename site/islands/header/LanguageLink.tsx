/**
 * The language switch of the header and the phone menu (issue 21): a link to this page in the
 * other language, named in that language (and marked so, for screen readers). The click is
 * remembered as the visitor's choice by the layout's script (`data-locale-choice`). Pages that
 * exist in one language only have no switch.
 */
import {
  AUTONYMS,
  isLocalized,
  localizePath,
  otherLocale,
  type Locale,
} from '../../i18n/locales.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

interface LanguageLinkProps {
  path?: string;
  locale: Locale;
  className?: string;
}

export default function LanguageLink({ path, locale, className = '' }: LanguageLinkProps) {
  if (!path || !isLocalized(path)) return null;
  const other = otherLocale(locale);
  return (
    <a
      className={`language-link ${className}`.trim()}
      href={localizePath(path, other)}
      hrefLang={other}
      lang={other}
      data-locale-choice={other}
    >
      <Icon icon={icons.globe} />
      <span>{AUTONYMS[other]}</span>
    </a>
  );
}
