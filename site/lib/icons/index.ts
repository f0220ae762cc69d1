/**
 * Every icon the site draws, as data: the children of a 24×24 SVG that strokes in currentColor
 * (round caps and joins, no fill) unless a shape says otherwise. The islands draw them with
 * islands/shared/Icon.tsx (`<Icon icon={icons.menu} />` after `import * as icons from …`); .astro
 * pages inline `iconMarkup()`. Our own constants, never content, so they are safe to inline. One
 * export per icon; the data sits in header.ts (every page) and pages.ts (the rest), so a page's
 * bundle carries only the icons it can draw. Names say what an icon shows; near-twins keep their
 * own geometry.
 */
import { briefcase, coinLine, downloadTray, picture, sound, textTall } from './pages.ts';
import { iconMarkup } from './shape.ts';

export * from './header.ts';
export * from './pages.ts';
export { type IconData } from './shape.ts';

/** Inner markup of each home feature-card icon, by the names content/home.json uses. */
export const FEATURE_ICONS = {
  sound: /* @__PURE__ */ iconMarkup(sound),
  text: /* @__PURE__ */ iconMarkup(textTall),
  image: /* @__PURE__ */ iconMarkup(picture),
  download: /* @__PURE__ */ iconMarkup(downloadTray),
  credits: /* @__PURE__ */ iconMarkup(coinLine),
  rights: /* @__PURE__ */ iconMarkup(briefcase),
};

export type FeatureIconName = keyof typeof FEATURE_ICONS;

export const isFeatureIcon = (name: string): name is FeatureIconName => name in FEATURE_ICONS;
