/**
 * A link that starts a sign-in (spec 2): Google's popup where the page offers it (see
 * site/stores/google-sign-in.ts), otherwise /login. It stays a real link, so it works before
 * the page's scripts run, from the keyboard and with a modifier key (a new tab gets /login).
 */
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import { LOGIN_PATH, startSignIn } from '../../stores/google-sign-in.ts';

type SignInLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** The page's language: the sign-in page in it. */
  locale?: Locale;
};

export default function SignInLink({ onClick, children, locale = 'en', ...link }: SignInLinkProps) {
  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    if (startSignIn()) event.preventDefault();
  };
  return (
    <a {...link} href={localizePath(LOGIN_PATH, locale)} onClick={onLinkClick}>
      {children}
    </a>
  );
}
