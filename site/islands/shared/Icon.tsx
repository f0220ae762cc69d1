/**
 * An icon from site/lib/icons.ts in the 24×24 line frame every island uses (decorative: hidden
 * from AT; every use has a text label nearby), plus the brand's logo mark.
 */
import type { IconData } from '../../lib/icons/index.ts';

interface IconProps {
  /** The icon's shapes: `icons.menu` from `import * as icons from '…/lib/icons/index.ts'`. */
  icon: IconData;
  className?: string;
  /** A few places draw a heavier line (a small close or check mark). */
  strokeWidth?: number;
}

export default function Icon({ icon, className, strokeWidth = 2 }: IconProps) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {icon.map(([Shape, attributes], index) => (
        <Shape key={index} {...attributes} />
      ))}
    </svg>
  );
}

/** The brand's mark beside its name (header and mobile menu). */
export function LogoMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="brand-mark-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#9d91ff" />
          <stop offset="1" stopColor="#6c5ce7" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#brand-mark-gradient)" />
      <path d="M12 9.5v13l10.5-6.5z" fill="#fff" />
    </svg>
  );
}
