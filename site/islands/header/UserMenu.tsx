/** The signed-in user's menu in the header bar: avatar and name, opening identity and Sign out. */
import type { PublicUser } from '../../../shared/api/auth.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import { useDropdown } from './dropdown.ts';
import { AccountIdentity, Avatar, displayName, SignOutButton } from './parts.tsx';

export default function UserMenu({ user, locale }: { user: PublicUser; locale: Locale }) {
  const { containerRef, buttonProps, panelProps } = useDropdown<HTMLDivElement, HTMLDivElement>();
  return (
    <div className="dropdown account-menu" ref={containerRef}>
      <button
        type="button"
        className="account-button"
        aria-label={m.header_account_menu(locale)}
        {...buttonProps}
      >
        <Avatar user={user} />
        <span className="account-button__name">{displayName(user)}</span>
        <Icon icon={icons.chevronDown} className="chevron" />
      </button>
      <div {...panelProps} className="dropdown__panel dropdown__panel--end">
        <div className="account-summary">
          <AccountIdentity user={user} />
        </div>
        <SignOutButton className="dropdown__item" locale={locale} />
      </div>
    </div>
  );
}
