/** History pager (spec 2 "History", 9: a window of 5 page buttons) with previous and next. */
import type { MouseEvent } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

/** Spec 9: the pager shows at most 5 page buttons. */
const PAGER_WINDOW = 5;

/** The page numbers to show: a window of up to 5 around `page`, kept inside 1…pages. */
function pageWindow(page: number, pages: number, size = PAGER_WINDOW): number[] {
  if (pages < 1) return [];
  const count = Math.min(size, pages);
  const start = Math.max(1, Math.min(page - Math.floor(size / 2), pages - count + 1));
  return Array.from({ length: count }, (_, index) => start + index);
}

/** A link to the videos after the last numbered page (`?cursor=…`): where "Next" goes there. */
export interface OlderLink {
  href: string;
  onSelect: () => void;
}

interface PagerProps {
  page: number;
  pages: number;
  /** href of a page, e.g. `?page=3`. */
  hrefFor: (page: number) => string;
  onSelect: (page: number) => void;
  /** On the last numbered page of a longer history: the page after it, by cursor. */
  older?: OlderLink | null;
  /** The page's language. */
  locale?: Locale;
}

/** Plain links (open in a new tab works); a normal click stays on the page. */
const followWith = (go: () => void) => (event: MouseEvent<HTMLAnchorElement>) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  go();
};

interface NextLinkProps {
  href: string;
  onClick: ReturnType<typeof followWith>;
  locale: Locale;
}

function NextLink({ href, onClick, locale }: NextLinkProps) {
  return (
    <a className="pager__link pager__step" href={href} onClick={onClick}>
      <span>{m.history_pager_next(locale)}</span>
      <Icon icon={icons.chevronRight} />
    </a>
  );
}

const DisabledNext = ({ locale }: { locale: Locale }) => (
  <span className="pager__link pager__step is-disabled" aria-disabled="true">
    <span>{m.history_pager_next(locale)}</span>
    <Icon icon={icons.chevronRight} />
  </span>
);

/**
 * The pager past the numbered pages (a page reached by cursor has no number): back to the
 * newest videos, or on to older ones.
 */
export function CursorPager({
  first,
  older,
  locale = 'en',
}: {
  first: OlderLink;
  older: OlderLink | null;
  locale?: Locale;
}) {
  return (
    <nav className="pager" aria-label={m.history_pager_label(locale)}>
      <ul className="pager__list" role="list">
        <li>
          <a
            className="pager__link pager__step"
            href={first.href}
            onClick={followWith(first.onSelect)}
          >
            <Icon icon={icons.chevronLeft} />
            <span>{m.history_pager_newest(locale)}</span>
          </a>
        </li>
        <li>
          {older ? (
            <NextLink href={older.href} onClick={followWith(older.onSelect)} locale={locale} />
          ) : (
            <DisabledNext locale={locale} />
          )}
        </li>
      </ul>
    </nav>
  );
}

export default function Pager({
  page,
  pages,
  hrefFor,
  onSelect,
  older = null,
  locale = 'en',
}: PagerProps) {
  if (pages <= 1 && !older) return null;

  const follow = (target: number) => followWith(() => onSelect(target));

  const previous = page > 1 ? page - 1 : null;
  const next = page < pages ? page + 1 : null;

  return (
    <nav className="pager" aria-label={m.history_pager_label(locale)}>
      <ul className="pager__list" role="list">
        <li>
          {previous ? (
            <a
              className="pager__link pager__step"
              href={hrefFor(previous)}
              onClick={follow(previous)}
            >
              <Icon icon={icons.chevronLeft} />
              <span>{m.history_pager_previous(locale)}</span>
            </a>
          ) : (
            <span className="pager__link pager__step is-disabled" aria-disabled="true">
              <Icon icon={icons.chevronLeft} />
              <span>{m.history_pager_previous(locale)}</span>
            </span>
          )}
        </li>
        {pageWindow(page, pages).map((number) => (
          <li key={number}>
            <a
              className="pager__link pager__number"
              href={hrefFor(number)}
              aria-current={number === page ? 'page' : undefined}
              aria-label={m.history_pager_page(locale, { number })}
              onClick={follow(number)}
            >
              {number}
            </a>
          </li>
        ))}
        <li>
          {next ? (
            <NextLink href={hrefFor(next)} onClick={follow(next)} locale={locale} />
          ) : older ? (
            <NextLink href={older.href} onClick={followWith(older.onSelect)} locale={locale} />
          ) : (
            <DisabledNext locale={locale} />
          )}
        </li>
      </ul>
    </nav>
  );
}
