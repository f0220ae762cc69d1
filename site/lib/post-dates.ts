/**
 * Post dates in the reader's time zone (spec 2: zh-CN long format with hour and minute; issue
 * 20). Blog pages are rendered once for every reader, so their HTML carries each date in UTC and
 * says so (a visible "UTC" and `data-time-zone="UTC"`); in the browser the dates are written again
 * in the reader's own zone. Every date is a `<time datetime="{ISO instant}" data-post-date>`, so
 * machines read the instant whichever zone the text is in. The date itself is written the same way
 * on English and Chinese pages (the spec's format); the zone's name in `title` is in the page's
 * language.
 */
import { DEFAULT_LOCALE, isLocale, type Locale } from '../i18n/locales.ts';
import { blog_date_utc_title, blog_date_zone_title } from '../i18n/messages.ts';
import { formatPostDate } from './blog.ts';

/** The zone of server-rendered dates: the same text wherever and whenever a page is built. */
const FALLBACK_TIME_ZONE = 'UTC';

/** The attributes and text of one date's `<time>` element. */
export interface PostDateMarkup {
  /** `datetime`: the instant as ISO 8601 (an unreadable date as given). */
  datetime: string;
  /** `data-time-zone`: the zone the text is written in. */
  zone: string;
  /** `title`: the zone in words, shown on hover. */
  title: string;
  text: string;
}

/** One post date written in `zone` (UTC unless told): UTC text ends in "UTC". */
export function postDateMarkup(
  value: string,
  zone: string = FALLBACK_TIME_ZONE,
  locale: Locale = DEFAULT_LOCALE,
): PostDateMarkup {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return { datetime: value, zone, title: '', text: value };
  const utc = zone === FALLBACK_TIME_ZONE;
  return {
    datetime: date.toISOString(),
    zone,
    title: utc ? blog_date_utc_title(locale) : blog_date_zone_title(locale, { zone }),
    text: `${formatPostDate(value, zone)}${utc ? ' UTC' : ''}`,
  };
}

/** The browser's time zone (the reader's), or UTC when the browser does not say. */
export function readerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || FALLBACK_TIME_ZONE;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}

/**
 * Rewrites every server-rendered post date under `root` in the reader's time zone, named in the
 * page's language (`<html lang>`).
 */
export function localizePostDates(root: ParentNode = document): void {
  const zone = readerTimeZone();
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  for (const time of root.querySelectorAll<HTMLTimeElement>('time[data-post-date]')) {
    const markup = postDateMarkup(time.dateTime, zone, locale);
    if (!markup.title) continue; // unreadable: keep what the server wrote
    time.textContent = markup.text;
    time.title = markup.title;
    time.dataset.timeZone = markup.zone;
  }
}
