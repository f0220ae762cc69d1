/** History pager (spec 2 "History", 9: a window of 5 page buttons) with previous and next. */
import type { MouseEvent } from 'react';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

/** Spec 9: the pager shows at most 5 page buttons. */
export const PAGER_WINDOW = 5;

/** The page numbers to show: a window of up to 5 around `page`, kept inside 1…pages. */
export function pageWindow(page: number, pages: number, size = PAGER_WINDOW): number[] {
  if (pages < 1) return [];
  const count = Math.min(size, pages);
  const start = Math.max(1, Math.min(page - Math.floor(size / 2), pages - count + 1));
  return Array.from({ length: count }, (_, index) => start + index);
}

interface PagerProps {
  page: number;
  pages: number;
  /** href of a page, e.g. `?page=3`. */
  hrefFor: (page: number) => string;
  onSelect: (page: number) => void;
}

export default function Pager({ page, pages, hrefFor, onSelect }: PagerProps) {
  if (pages <= 1) return null;

  // Plain links (open in a new tab works); a normal click stays on the page.
  const follow = (target: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onSelect(target);
  };

  const previous = page > 1 ? page - 1 : null;
  const next = page < pages ? page + 1 : null;

  return (
    <nav className="pager" aria-label="History pages">
      <ul className="pager__list" role="list">
        <li>
          {previous ? (
            <a
              className="pager__link pager__step"
              href={hrefFor(previous)}
              onClick={follow(previous)}
            >
              <Icon icon={icons.chevronLeft} />
              <span>Previous</span>
            </a>
          ) : (
            <span className="pager__link pager__step is-disabled" aria-disabled="true">
              <Icon icon={icons.chevronLeft} />
              <span>Previous</span>
            </span>
          )}
        </li>
        {pageWindow(page, pages).map((number) => (
          <li key={number}>
            <a
              className="pager__link pager__number"
              href={hrefFor(number)}
              aria-current={number === page ? 'page' : undefined}
              aria-label={`Page ${number}`}
              onClick={follow(number)}
            >
              {number}
            </a>
          </li>
        ))}
        <li>
          {next ? (
            <a className="pager__link pager__step" href={hrefFor(next)} onClick={follow(next)}>
              <span>Next</span>
              <Icon icon={icons.chevronRight} />
            </a>
          ) : (
            <span className="pager__link pager__step is-disabled" aria-disabled="true">
              <span>Next</span>
              <Icon icon={icons.chevronRight} />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
