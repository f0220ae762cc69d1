/**
 * The loading screen shown while the stored login state is checked (spec 2 Routes: it reads
 * '正在加载应用...'), before any signed-in view renders. `page` fills the page below the header
 * (/login, /blog-admin, /admin); `inline` takes the place of the part of a page that waits for
 * the login state (the generator's button area, the history list, the pricing account box), at
 * the height that part will have, so nothing jumps when it renders.
 */
import type { Locale } from '../i18n/locales.ts';
import { loading_app } from '../i18n/messages.ts';

export default function LoadingScreen({
  variant = 'page',
  className = '',
  locale = 'en',
}: {
  variant?: 'page' | 'inline';
  className?: string;
  locale?: Locale;
}) {
  return (
    <div
      className={`${variant === 'page' ? 'loading-screen' : 'loading-inline'} ${className}`.trim()}
      role="status"
      aria-live="polite"
      data-testid="loading-screen"
    >
      <span className={variant === 'page' ? 'spinner' : 'spinner spinner-sm'} aria-hidden="true" />
      {/* The spec's text is Chinese in every language. */}
      <p lang="zh-CN">{loading_app(locale)}</p>
    </div>
  );
}
