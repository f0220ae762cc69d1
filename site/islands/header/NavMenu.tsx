/**
 * The header's main navigation on wide screens: Home, the AI Tools dropdown, then the links.
 * Static markup; header.ts opens the dropdown (dropdown.ts) and shows the signed-in links.
 */
import * as icons from '../../lib/icons/index.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { GENERATOR_PATH, generatorHref } from '../../lib/site.ts';
import Icon from '../shared/Icon.tsx';
import { isCurrent } from './parts.tsx';

/** Who sees a link: everyone, a signed-in user, or a user who manages the blog (spec 2, 6). */
type Audience = 'everyone' | 'user' | 'editor';

interface NavLink {
  href: string;
  label: string;
  audience: Audience;
}

/**
 * Links after the AI Tools group. History and Blog Admin are in the markup for everyone and
 * hidden until header.ts knows the user may see them (`data-audience`).
 */
export function trailingLinks(locale: Locale): NavLink[] {
  const links: NavLink[] = [
    { href: '/pricing', label: m.nav_pricing(locale), audience: 'everyone' },
    { href: '/blog', label: m.nav_blog(locale), audience: 'everyone' },
    { href: '/video-history', label: m.nav_history(locale), audience: 'user' },
    { href: '/blog-admin', label: m.nav_blog_admin(locale), audience: 'editor' },
  ];
  return links.map((link) => ({ ...link, href: localizePath(link.href, locale) }));
}

/** Props of a link's list item: hidden, and marked for header.ts, when not for everyone. */
export function audienceProps(audience: Audience) {
  return audience === 'everyone' ? {} : { hidden: true, 'data-audience': audience };
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

const TOOLS_PANEL_ID = 'site-nav-tools';

/**
 * The AI Tools button is marked not ready (aria-disabled, data-early) until header.ts runs: a
 * click before that is kept by the layout's recorder and replayed (site/islands/shared/early-tap.ts).
 */
function AiToolsDropdown({ path, locale }: { path?: string; locale: Locale }) {
  return (
    <li className="dropdown" data-dropdown="">
      <button
        type="button"
        className="nav-link"
        aria-expanded="false"
        aria-controls={TOOLS_PANEL_ID}
        aria-disabled="true"
        data-early=""
        aria-current={isCurrent(path, localizePath(GENERATOR_PATH, locale)) ? 'page' : undefined}
      >
        {m.nav_ai_tools(locale)}
        <Icon icon={icons.chevronDown} className="chevron" />
      </button>
      <ul id={TOOLS_PANEL_ID} className="dropdown__panel" hidden>
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

export default function NavMenu({ path, locale }: { path?: string; locale: Locale }) {
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
        {trailingLinks(locale).map(({ href, label, audience }) => (
          <li key={href} {...audienceProps(audience)}>
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
