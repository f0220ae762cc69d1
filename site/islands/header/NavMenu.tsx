/** The header's main navigation on wide screens: Home, the AI Tools dropdown, then the links. */
import type { PublicUser } from '../../../server/contracts/auth.ts';
import * as icons from '../../lib/icons/index.ts';
import { GENERATOR_PATH, generatorHref } from '../../lib/site.ts';
import Icon from '../shared/Icon.tsx';
import { useDropdown } from './dropdown.ts';
import { isCurrent } from './parts.tsx';

interface NavLink {
  href: string;
  label: string;
}

/** Links after the AI Tools group; History and Blog Admin depend on the user (spec 2, 6). */
export function trailingLinks(user: PublicUser | null): NavLink[] {
  const links: NavLink[] = [
    { href: '/pricing', label: 'Pricing' },
    { href: '/blog', label: 'Blog' },
  ];
  if (user) links.push({ href: '/video-history', label: 'History' });
  if (user?.can_manage_blog) links.push({ href: '/blog-admin', label: 'Blog Admin' });
  return links;
}

/** The two generator modes, as the dropdown and the mobile menu list them. */
export const AI_TOOLS = [
  { mode: 'text', icon: icons.text, label: 'Text to Video', hint: 'Describe a scene in words' },
  { mode: 'image', icon: icons.image, label: 'Image to Video', hint: 'Bring a photo to life' },
] as const;

function AiToolsDropdown({ path }: { path?: string }) {
  const { containerRef, buttonProps, panelProps } = useDropdown<HTMLLIElement, HTMLUListElement>();
  return (
    <li className="dropdown" ref={containerRef}>
      <button
        type="button"
        className="nav-link"
        {...buttonProps}
        aria-current={isCurrent(path, GENERATOR_PATH) ? 'page' : undefined}
      >
        AI Tools
        <Icon icon={icons.chevronDown} className="chevron" />
      </button>
      <ul {...panelProps} className="dropdown__panel">
        {AI_TOOLS.map(({ mode, icon, label, hint }) => (
          <li key={mode}>
            <a className="dropdown__item" href={generatorHref(mode)}>
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

export default function NavMenu({ path, user }: { path?: string; user: PublicUser | null }) {
  return (
    <nav className="site-nav" aria-label="Main">
      <ul className="site-nav__list">
        <li>
          <a className="nav-link" href="/" aria-current={isCurrent(path, '/') ? 'page' : undefined}>
            Home
          </a>
        </li>
        <AiToolsDropdown path={path} />
        {trailingLinks(user).map(({ href, label }) => (
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
