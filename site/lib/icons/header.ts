/**
 * The icons the site header draws, so every page loads them: kept apart from the others so a page
 * loads only the icons it shows (a module is bundled whole).
 */
import type { IconData } from './shape.ts';

export const chevronDown: IconData = [['path', { d: 'm6 9 6 6 6-6' }]];
export const menu: IconData = [['path', { d: 'M4 6h16M4 12h16M4 18h16' }]];
export const close: IconData = [['path', { d: 'M18 6 6 18M6 6l12 12' }]];
export const signOut: IconData = [
  ['path', { d: 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9' }],
];
/** A globe: the language switch. */
export const globe: IconData = [
  ['circle', { cx: 12, cy: 12, r: 9 }],
  ['path', { d: 'M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18' }],
];
export const text: IconData = [['path', { d: 'M4 7V5h16v2M9 19h6M12 5v14' }]];
export const image: IconData = [
  ['rect', { x: 3, y: 3, width: 18, height: 18, rx: 2 }],
  ['circle', { cx: 9, cy: 9, r: 2 }],
  ['path', { d: 'm21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21' }],
];
export const person: IconData = [
  ['circle', { cx: 12, cy: 8, r: 4 }],
  ['path', { d: 'M4 21a8 8 0 0 1 16 0' }],
];
/** The header's credit coin: a filled disc with a dark dollar sign. */
export const coin: IconData = [
  ['circle', { cx: 12, cy: 12, r: 10, fill: 'currentColor', stroke: 'none' }],
  [
    'path',
    {
      d: 'M12 7.5v9M14.2 9.6h-3a1.4 1.4 0 0 0 0 2.8h1.6a1.4 1.4 0 0 1 0 2.8H9.8',
      stroke: '#8a6512',
      strokeWidth: 1.5,
    },
  ],
];
