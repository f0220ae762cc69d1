/**
 * The signed-in user's menu in the header bar: avatar and name, opening identity, Account
 * settings and Sign out.
 * Hidden until header.ts has a signed-in user to fill in; dropdown.ts opens and closes it.
 */
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import { AccountIdentity, Avatar, SignOutButton } from './parts.tsx';

const ACCOUNT_PANEL_ID = 'site-account-panel';

export default function UserMenu({ locale }: { locale: Locale }) {
  return (
    <div className="dropdown account-menu" data-dropdown="" data-signed-in="" hidden>
      <button
        type="button"
        className="account-button"
        aria-label={m.header_account_menu(locale)}
        aria-expanded="false"
        aria-controls={ACCOUNT_PANEL_ID}
      >
        <Avatar />
        <span className="account-button__name" data-user-name="" />
        <Icon icon={icons.chevronDown} className="chevron" />
      </button>
      <div id={ACCOUNT_PANEL_ID} className="dropdown__panel dropdown__panel--end" hidden>
        <div className="account-summary">
          <AccountIdentity />
        </div>
        <a className="dropdown__item" href={localizePath('/account', locale)}>
          <Icon icon={icons.person} />
          {m.header_account_settings(locale)}
        </a>
        <SignOutButton className="dropdown__item" locale={locale} />
      </div>
    </div>
  );
}
