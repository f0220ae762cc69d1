/** Full-screen menu for small screens: a modal dialog holding its own close button. */
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import type { PublicUser } from '../../../shared/api/auth.ts';
import * as icons from '../../lib/icons/index.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { keepTabInside } from '../shared/focus-trap.ts';
import Icon from '../shared/Icon.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import LanguageLink from './LanguageLink.tsx';
import { aiTools, trailingLinks } from './NavMenu.tsx';
import { AccountIdentity, Brand, CreditsPill, isCurrent, SignOutButton } from './parts.tsx';

/** The menu is for small screens only; growing past this closes it. */
const MOBILE_QUERY = '(max-width: 768px)';

interface MobileMenuProps {
  id: string;
  open: boolean;
  onClose: () => void;
  path?: string;
  languageHref?: string | null;
  ready: boolean;
  user: PublicUser | null;
  credits: number;
  locale: Locale;
}

/**
 * While open: focus on the close button, page scroll locked, Escape closes, Tab stays inside, and
 * growing past the breakpoint closes it.
 */
function useOpenMenu(
  open: boolean,
  onClose: () => void,
  dialogRef: RefObject<HTMLDivElement | null>,
  closeRef: RefObject<HTMLButtonElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    // Lock page scroll behind the full-screen menu.
    const root = document.documentElement;
    const previousOverflow = root.style.overflow;
    root.style.overflow = 'hidden';
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onClose();
        return;
      }
      if (dialogRef.current) keepTabInside(event, dialogRef.current);
    };
    document.addEventListener('keydown', onKeyDown);
    const media = window.matchMedia(MOBILE_QUERY);
    const onMediaChange = () => {
      if (!media.matches) onClose();
    };
    media.addEventListener('change', onMediaChange);
    return () => {
      root.style.overflow = previousOverflow;
      document.removeEventListener('keydown', onKeyDown);
      media.removeEventListener('change', onMediaChange);
    };
  }, [open, onClose, dialogRef, closeRef]);
}

export default function MobileMenu({
  id,
  open,
  onClose,
  path,
  languageHref,
  ready,
  user,
  credits,
  locale,
}: MobileMenuProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useOpenMenu(open, onClose, dialogRef, closeRef);

  const link = (href: string, label: string, icon?: ReactNode) => (
    <li key={href}>
      <a
        className="mobile-menu__link"
        href={href}
        aria-current={isCurrent(path, href) ? 'page' : undefined}
        onClick={onClose}
      >
        {icon}
        {label}
      </a>
    </li>
  );

  return (
    <div
      id={id}
      ref={dialogRef}
      className="mobile-menu"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      hidden={!open}
    >
      <div className="container mobile-menu__top">
        <Brand locale={locale} onClick={onClose} />
        <h2 id={titleId} className="sr-only">
          {m.header_menu_title(locale)}
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="menu-toggle"
          aria-label={m.header_close_menu(locale)}
          aria-expanded="true"
          aria-controls={id}
          onClick={onClose}
        >
          <Icon icon={icons.close} />
        </button>
      </div>
      <div className="container mobile-menu__body">
        {ready && user && (
          <div className="mobile-menu__account">
            <AccountIdentity user={user} />
            <CreditsPill credits={credits} locale={locale} onClick={onClose} />
          </div>
        )}
        <nav aria-label={m.nav_main_label(locale)}>
          <ul className="mobile-menu__list">
            {link(localizePath('/', locale), m.nav_home(locale))}
            <li>
              <p className="mobile-menu__group-label" id={`${id}-tools`}>
                {m.nav_ai_tools(locale)}
              </p>
              <ul className="mobile-menu__list mobile-menu__nested" aria-labelledby={`${id}-tools`}>
                {aiTools(locale).map(({ icon, href, label }) =>
                  link(href, label, <Icon icon={icon} />),
                )}
              </ul>
            </li>
            {trailingLinks(ready ? user : null, locale).map(({ href, label }) => link(href, label))}
          </ul>
        </nav>
        <LanguageLink href={languageHref} locale={locale} className="mobile-menu__language" />
        {ready && (
          <div className="mobile-menu__footer">
            {user ? (
              <SignOutButton className="btn btn-secondary btn-block" locale={locale} />
            ) : (
              <SignInLink className="btn btn-primary btn-block" locale={locale}>
                {m.header_login(locale)}
              </SignInLink>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
