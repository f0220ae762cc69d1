/**
 * The Text to Video / Image to Video tabs (spec 2 "Generator"), with arrow-key navigation. Until
 * the island is hydrated the tabs are marked not ready (aria-disabled): a tap on one is kept and
 * replayed once it can switch the form (site/islands/shared/use-early-tap.ts).
 */
import { useRef, type KeyboardEvent } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import type { GeneratorMode } from './generation-rules.ts';
import Icon from '../shared/Icon.tsx';
import { earlyProps, useEarlyTap } from '../shared/use-early-tap.ts';

const TABS: { mode: GeneratorMode; label: (locale: Locale) => string }[] = [
  { mode: 'text', label: m.generator_tab_text },
  { mode: 'image', label: m.generator_tab_image },
];

interface ModeTabsProps {
  mode: GeneratorMode;
  onChange: (mode: GeneratorMode) => void;
  /** Id of the panel the tabs control. */
  panelId: string;
  /** Prefix for the tab ids, so the panel can name its tab. */
  idPrefix: string;
  locale: Locale;
}

/** Id of the tab for a mode, for the panel's aria-labelledby. */
export function tabId(idPrefix: string, mode: GeneratorMode): string {
  return `${idPrefix}-tab-${mode}`;
}

export default function ModeTabs({ mode, onChange, panelId, idPrefix, locale }: ModeTabsProps) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const { live, ref } = useEarlyTap<HTMLDivElement>();

  // Automatic activation: the arrow keys move focus and select (WAI-ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = TABS.findIndex((tab) => tab.mode === mode);
    const last = TABS.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: current === last ? 0 : current + 1,
      ArrowDown: current === last ? 0 : current + 1,
      ArrowLeft: current === 0 ? last : current - 1,
      ArrowUp: current === 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const next = targets[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = TABS[next];
    if (!target) return;
    onChange(target.mode);
    tabRefs.current[next]?.focus();
  };

  return (
    <div
      ref={ref}
      className="gen-tabs"
      role="tablist"
      aria-label={m.generator_mode_label(locale)}
      onKeyDown={onKeyDown}
    >
      {TABS.map((tab, index) => {
        const selected = tab.mode === mode;
        return (
          <button
            key={tab.mode}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, tab.mode)}
            className="gen-tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            data-testid={`tab-${tab.mode}`}
            {...earlyProps(live)}
            onClick={() => onChange(tab.mode)}
          >
            {tab.mode === 'text' ? <Icon icon={icons.text} /> : <Icon icon={icons.image} />}
            {tab.label(locale)}
          </button>
        );
      })}
    </div>
  );
}
