/**
 * The generator's "Advanced" disclosure (issue 35 item 2): a native <details>, closed by
 * default, that opens before the island is live too. Its summary names what is chosen; its
 * controls (AdvancedOptions.tsx) load the first time it opens, so the page sends them only to
 * the people who use them.
 */
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import LoadingScreen from '../LoadingScreen.tsx';
import type { AdvancedOptionsProps } from './AdvancedOptions.tsx';

const AdvancedOptions = lazy(() => import('./AdvancedOptions.tsx'));

interface AdvancedDisclosureProps extends AdvancedOptionsProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The chosen options in words ("9:16 · 1080p · Seed 42"), or null for the default. */
  chosen: ReactNode;
  locale: Locale;
}

export default function AdvancedDisclosure({
  open,
  onOpenChange,
  chosen,
  ...options
}: AdvancedDisclosureProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { locale } = options;

  useEffect(() => {
    // Opened before the island was live: the element is open, the state is not yet.
    if (ref.current?.open) onOpenChange(true);
    // Only once, on hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <details
      ref={ref}
      className="gen-advanced"
      open={open}
      onToggle={(event) => onOpenChange(event.currentTarget.open)}
      data-testid="advanced"
    >
      <summary className="gen-advanced__summary" data-testid="advanced-summary">
        <span className="gen-advanced__title">{m.generator_advanced(locale)}</span>
        <span className="gen-advanced__chosen">{chosen ?? m.generator_advanced_hint(locale)}</span>
      </summary>
      {open && (
        <Suspense fallback={<LoadingScreen variant="inline" locale={locale} />}>
          <AdvancedOptions {...options} />
        </Suspense>
      )}
    </details>
  );
}
