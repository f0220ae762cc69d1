/**
 * Site header (spec 2 "Header"): the brand, the navigation (NavMenu), the account area (Login,
 * or the CreditsPill and UserMenu) and, on small screens, the button that opens the MobileMenu.
 *
 * Plain HTML, rendered at build time with no JavaScript of its own (BaseLayout renders it without
 * a client directive): every control works from the first paint. The links are links, the phone
 * menu is a native popover, and Login shows from the first paint for a visitor with no stored
 * session (the layout's first script sets `<html data-session>` before the page paints).
 * header.ts, a small module that runs before DOMContentLoaded, adds the rest: the signed-in
 * user and credits, the dropdowns, the scrolled style, the menu's focus and scroll handling,
 * Sign out and Google's sign-in popup. No React on the page for it (issue 33: the home page
 * sends no framework).
 */
import { localeOfPath } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import LanguageLink from './LanguageLink.tsx';
import MobileMenu from './MobileMenu.tsx';
import NavMenu from './NavMenu.tsx';
import { Brand, CreditsPill, LoginLink } from './parts.tsx';
import UserMenu from './UserMenu.tsx';

interface HeaderProps {
  /** Path of the current page: its language and the active link. */
  path?: string;
  /** Where the language switch leads (BaseLayout: this page in the other language, or null). */
  languageHref?: string | null;
}

/** The phone menu's id: the menu button names it (popovertarget, aria-controls). */
const MENU_ID = 'site-menu';

export default function Header({ path, languageHref }: HeaderProps) {
  const locale = localeOfPath(path ?? '/');
  return (
    <>
      <header className="site-header">
        <div className="container site-header__inner">
          <Brand locale={locale} />
          <NavMenu path={path} locale={locale} />

          <div className="site-header__account">
            <LanguageLink href={languageHref} locale={locale} className="site-header__language" />
            {/* Holds the place of the account while a stored session is being read. */}
            <span className="account-placeholder" aria-hidden="true" />
            <LoginLink className="btn btn-primary" locale={locale} />
            <span className="site-header__credits" data-signed-in="" hidden>
              <CreditsPill
                locale={locale}
                testId="header-credits"
                title={m.header_credits_title(locale)}
              />
            </span>
            <UserMenu locale={locale} />
          </div>

          <button
            type="button"
            className="menu-toggle"
            aria-label={m.header_open_menu(locale)}
            aria-controls={MENU_ID}
            popoverTarget={MENU_ID}
            data-menu-open=""
          >
            <Icon icon={icons.menu} />
          </button>
        </div>
      </header>
      <MobileMenu id={MENU_ID} path={path} languageHref={languageHref} locale={locale} />
    </>
  );
}
