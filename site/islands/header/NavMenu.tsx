/** The header's main navigation on wide screens: Home, the AI Tools dropdown, then the links. */
import type { PublicUser } from '../../../shared/api/auth.ts';
import * as icons from '../../lib/icons/index.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { GENERATOR_PATH, generatorHref } from '../../lib/site.ts';
import Icon from '../shared/Icon.tsx';
import { useDropdown } from './dropdown.ts';
import { isCurrent } from './parts.tsx';

interface NavLink {
  href: string;
  label: string;
}

/** Links after the AI Tools group; History and Blog Admin depend on the user (spec 2, 6). */
export function trailingLinks(user: PublicUser | null, locale: Locale): NavLink[] {
  const links: NavLink[] = [
    { href: '/pricing', label: m.nav_pricing(locale) },
    { href: '/blog', label: m.nav_blog(locale) },
  ];
  if (user) links.push({ href: '/video-history', label: m.nav_history(locale) });
  if (user?.can_manage_blog) links.push({ href: '/blog-admin', label: m.nav_blog_admin(locale) });
  return links.map((link) => ({ ...link, href: localizePath(link.href, locale) }));
}

/** The two generator modes, as the dropdown and the mobile menu list them. */
export function aiTools(locale: Locale) {
  return [
    {
      mode: 'text',
      icon: icons.text,
      href: localizePath(generatorHref('text'), locale),
      label: m.nav_text_to_video(locale),
      hint: m.nav_text_to_video_hint(locale),
    },
    {
      mode: 'image',
      icon: icons.image,
      href: localizePath(generatorHref('image'), locale),
      label: m.nav_image_to_video(locale),
      hint: m.nav_image_to_video_hint(locale),
    },
  ] as const;
}

function AiToolsDropdown({ path, locale }: { path?: string; locale: Locale }) {
  const { containerRef, buttonProps, panelProps } = useDropdown<HTMLLIElement, HTMLUListElement>();
  return (
    <li className="dropdown" ref={containerRef}>
      <button
        type="button"
        className="nav-link"
        {...buttonProps}
        aria-current={isCurrent(path, localizePath(GENERATOR_PATH, locale)) ? 'page' : undefined}
      >
        {m.nav_ai_tools(locale)}
        <Icon icon={icons.chevronDown} className="chevron" />
      </button>
      <ul {...panelProps} className="dropdown__panel">
        {aiTools(locale).map(({ mode, icon, href, label, hint }) => (
          <li key={mode}>
            <a className="dropdown__item" href={href}>
              <Icon icon={icon} />
              <span>
                {label}
                <small>{hint}</small>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </li>
  );
}

interface NavMenuProps {
  path?: string;
  user: PublicUser | null;
  locale: Locale;
}

export default function NavMenu({ path, user, locale }: NavMenuProps) {
  const home = localizePath('/', locale);
  return (
    <nav className="site-nav" aria-label={m.nav_main_label(locale)}>
      <ul className="site-nav__list">
        <li>
          <a
            className="nav-link"
            href={home}
            aria-current={isCurrent(path, home) ? 'page' : undefined}
          >
            {m.nav_home(locale)}
          </a>
        </li>
        <AiToolsDropdown path={path} locale={locale} />
        {trailingLinks(user, locale).map(({ href, label }) => (
          <li key={href}>
            <a
              className="nav-link"
              href={href}
              aria-current={isCurrent(path, href) ? 'page' : undefined}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
