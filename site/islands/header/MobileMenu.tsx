/**
 * Full-screen menu for small screens: a native popover (the bar's menu button opens it and its
 * own close button hides it, with no script), announced as a modal dialog. header.ts (menu.ts)
 * adds what a script must: focus on the close button, the page's scroll locked, Tab kept inside,
 * and closing when a link is followed or the screen grows past the breakpoint.
 */
import type { ReactNode } from 'react';
import * as icons from '../../lib/icons/index.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import Icon from '../shared/Icon.tsx';
import LanguageLink from './LanguageLink.tsx';
import { aiTools, audienceProps, trailingLinks } from './NavMenu.tsx';
import {
  AccountIdentity,
  Brand,
  CreditsPill,
  isCurrent,
  LoginLink,
  SignOutButton,
} from './parts.tsx';

interface MobileMenuProps {
  id: string;
  path?: string;
  languageHref?: string | null;
  locale: Locale;
}

export default function MobileMenu({ id, path, languageHref, locale }: MobileMenuProps) {
  const titleId = `${id}-title`;
  const link = (href: string, label: string, icon?: ReactNode) => (
    <a
      className="mobile-menu__link"
      href={href}
      aria-current={isCurrent(path, href) ? 'page' : undefined}
    >
      {icon}
      {label}
    </a>
  );

  return (
    <div
      id={id}
      className="mobile-menu"
      popover="auto"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
    >
      <div className="container mobile-menu__top">
        <Brand locale={locale} />
        <h2 id={titleId} className="sr-only">
          {m.header_menu_title(locale)}
        </h2>
        <button
          type="button"
          className="menu-toggle"
          aria-label={m.header_close_menu(locale)}
          popoverTarget={id}
          popoverTargetAction="hide"
          data-menu-close=""
        >
          <Icon icon={icons.close} />
        </button>
      </div>
      <div className="container mobile-menu__body">
        <div className="mobile-menu__account" data-signed-in="" hidden>
          <AccountIdentity />
          <CreditsPill locale={locale} />
        </div>
        <nav aria-label={m.nav_main_label(locale)}>
          <ul className="mobile-menu__list">
            <li>{link(localizePath('/', locale), m.nav_home(locale))}</li>
            <li>
              <p className="mobile-menu__group-label" id={`${id}-tools`}>
                {m.nav_ai_tools(locale)}
              </p>
              <ul className="mobile-menu__list mobile-menu__nested" aria-labelledby={`${id}-tools`}>
                {aiTools(locale).map(({ mode, icon, href, label }) => (
                  <li key={mode}>{link(href, label, <Icon icon={icon} />)}</li>
                ))}
              </ul>
            </li>
            {trailingLinks(locale).map(({ href, label, audience }) => (
              <li key={href} {...audienceProps(audience)}>
                {link(href, label)}
              </li>
            ))}
          </ul>
        </nav>
        <LanguageLink href={languageHref} locale={locale} className="mobile-menu__language" />
        <div className="mobile-menu__footer">
          <LoginLink className="btn btn-primary btn-block" locale={locale} />
          <a
            className="btn btn-secondary btn-block"
            href={localizePath('/account', locale)}
            hidden
            data-signed-in=""
          >
            {m.header_account_settings(locale)}
          </a>
          <SignOutButton className="btn btn-secondary btn-block" locale={locale} signedInOnly />
        </div>
      </div>
    </div>
  );
}
