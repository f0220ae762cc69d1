/**
 * Site header (spec 2 "Header"): live because it reflects the signed-in user and credits. The bar
 * holds the brand, the navigation (NavMenu), the account area (CreditsPill, UserMenu or Login)
 * and, on small screens, the button that opens the MobileMenu.
 */
import { useCallback, useId, useRef, useState, useSyncExternalStore } from 'react';
import { basePath, localeOfPath } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import { $authReady, $authToken, $user } from '../../stores/auth.ts';
import { $credits } from '../../stores/credits.ts';
import GoogleSignInScope from '../shared/GoogleSignInScope.tsx';
import Icon from '../shared/Icon.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';
import LanguageLink from './LanguageLink.tsx';
import MobileMenu from './MobileMenu.tsx';
import NavMenu from './NavMenu.tsx';
import { Brand, CreditsPill } from './parts.tsx';
import UserMenu from './UserMenu.tsx';

interface HeaderProps {
  /** Path of the current page, to mark the active link without reading `location` at build time. */
  path?: string;
  /** Where the language switch leads (BaseLayout: this page in the other language, or null). */
  languageHref?: string | null;
}

/** Spec 9: scroll threshold 50 px. */
const SCROLL_THRESHOLD_PX = 50;

function subscribeToScroll(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/** True once the page has scrolled past the threshold; false while pre-rendering. */
function useScrolledPastThreshold(): boolean {
  return useSyncExternalStore(
    subscribeToScroll,
    () => window.scrollY > SCROLL_THRESHOLD_PX,
    () => false,
  );
}

export default function Header({ path, languageHref }: HeaderProps) {
  const ready = useHydratedStore($authReady);
  const storedUser = useHydratedStore($user);
  const token = useHydratedStore($authToken);
  const credits = useHydratedStore($credits);
  const scrolled = useScrolledPastThreshold();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const locale = localeOfPath(path ?? '/');

  // Signed in means both halves of the session are present (spec 4).
  const user = ready && token ? storedUser : null;

  const closeMenu = useCallback(() => {
    setMenuOpen(false);
    // The open button is back once the dialog hides; return focus to it.
    requestAnimationFrame(() => toggleRef.current?.focus());
  }, []);

  return (
    <>
      <header className={scrolled ? 'site-header is-scrolled' : 'site-header'}>
        <div className="container site-header__inner">
          <Brand locale={locale} />
          <NavMenu path={path} user={user} locale={locale} />

          <div className="site-header__account">
            <LanguageLink href={languageHref} locale={locale} className="site-header__language" />
            {!ready ? (
              // Neutral until the stored session is known, so signed-in users never see Login flash.
              <span className="account-placeholder" aria-hidden="true" />
            ) : user ? (
              <>
                <CreditsPill
                  credits={credits}
                  locale={locale}
                  testId="header-credits"
                  title={m.header_credits_title(locale)}
                />
                <UserMenu user={user} locale={locale} />
              </>
            ) : (
              <SignInLink className="btn btn-primary" locale={locale}>
                {m.header_login(locale)}
              </SignInLink>
            )}
          </div>

          {!menuOpen && (
            <button
              ref={toggleRef}
              type="button"
              className="menu-toggle"
              aria-label={m.header_open_menu(locale)}
              aria-expanded="false"
              aria-controls={menuId}
              onClick={() => setMenuOpen(true)}
            >
              <Icon icon={icons.menu} />
            </button>
          )}
        </div>
      </header>
      {/* The page's Google provider; /login has its own (the rendered Google button). */}
      <GoogleSignInScope
        enabled={ready && !user && basePath(path ?? '/') !== '/login'}
        locale={locale}
      />
      <MobileMenu
        id={menuId}
        open={menuOpen}
        onClose={closeMenu}
        path={path}
        languageHref={languageHref}
        ready={ready}
        user={user}
        credits={credits}
        locale={locale}
      />
    </>
  );
}
