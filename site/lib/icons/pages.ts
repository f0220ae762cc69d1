/** The icons drawn only on some pages (see header.ts for the ones every page draws). */
import type { IconData } from './shape.ts';

export const chevronLeft: IconData = [['path', { d: 'm15 6-6 6 6 6' }]];
export const chevronRight: IconData = [['path', { d: 'm9 6 6 6-6 6' }]];
export const arrowLeft: IconData = [['path', { d: 'M19 12H5m0 0 6-6m-6 6 6 6' }]];
export const plus: IconData = [['path', { d: 'M12 5v14M5 12h14' }]];
export const check: IconData = [['path', { d: 'm5 12.5 4.5 4.5L19 7.5' }]];
export const edit: IconData = [
  ['path', { d: 'M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16zM13.5 6.5l4 4' }],
];
export const trash: IconData = [
  ['path', { d: 'M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3' }],
];
export const download: IconData = [['path', { d: 'M12 4v11m0 0-4-4m4 4 4-4M5 20h14' }]];
export const upload: IconData = [
  ['path', { d: 'M12 16V4m0 0L7 9m5-5 5 5M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2' }],
];
export const retry: IconData = [
  ['path', { d: 'M3 12a9 9 0 1 0 3-6.7L3 8' }],
  ['path', { d: 'M3 3v5h5' }],
];
/** The admin's sign-out: an arrow into a door on the right. */
export const arrowIntoDoor: IconData = [
  ['path', { d: 'M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l5-5-5-5M15 12H4' }],
];
export const film: IconData = [
  ['rect', { x: 2, y: 4, width: 20, height: 16, rx: 2 }],
  ['path', { d: 'M7 4v16M17 4v16M2 9h5M2 15h5M17 9h5M17 15h5' }],
];
export const video: IconData = [
  ['rect', { x: 2, y: 4, width: 20, height: 16, rx: 2 }],
  ['path', { d: 'M10 9.5v5l4-2.5z' }],
];
export const lock: IconData = [
  ['rect', { x: 4, y: 10, width: 16, height: 11, rx: 2 }],
  ['path', { d: 'M8 10V7a4 4 0 0 1 8 0v3' }],
];
export const eye: IconData = [
  ['path', { d: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z' }],
  ['circle', { cx: 12, cy: 12, r: 3 }],
];
export const spark: IconData = [
  [
    'path',
    {
      d: 'M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9zM19 16l.8 2.2L22 19l-2.2.8L19 22l-.8-2.2L16 19l2.2-.8z',
      fill: 'currentColor',
      stroke: 'none',
    },
  ],
];
/** The pricing page's balance coin: an outline with a lighter dollar sign. */
export const coinOutline: IconData = [
  ['circle', { cx: 12, cy: 12, r: 9 }],
  ['path', { d: 'M12 7.5v9M9.5 10h4a1.5 1.5 0 010 3h-3a1.5 1.5 0 000 3h4', strokeWidth: 1.6 }],
];
export const alert: IconData = [
  ['circle', { cx: 12, cy: 12, r: 10 }],
  ['path', { d: 'M12 8v5M12 16.5v.5' }],
];
export const circleCheck: IconData = [
  ['circle', { cx: 12, cy: 12, r: 10 }],
  ['path', { d: 'M7.5 12.5l3 3 6-6.5' }],
];
export const circleError: IconData = [
  ['circle', { cx: 12, cy: 12, r: 10 }],
  ['path', { d: 'M12 7v6M12 16.5v.5' }],
];
export const circleInfo: IconData = [
  ['circle', { cx: 12, cy: 12, r: 10 }],
  ['path', { d: 'M12 11v6M12 7.5v.5' }],
];
export const sound: IconData = [
  ['path', { d: 'M11 5 6 9H2v6h4l5 4V5z' }],
  ['path', { d: 'M15.5 8.5a5 5 0 0 1 0 7' }],
  ['path', { d: 'M19 5a10 10 0 0 1 0 14' }],
];
export const textTall: IconData = [
  ['path', { d: 'M4 7V4h16v3' }],
  ['path', { d: 'M9 20h6' }],
  ['path', { d: 'M12 4v16' }],
];
export const picture: IconData = [
  ['rect', { x: 3, y: 3, width: 18, height: 18, rx: 2 }],
  ['circle', { cx: 8.5, cy: 8.5, r: 1.5 }],
  ['path', { d: 'm21 15-5-5L5 21' }],
];
export const downloadTray: IconData = [
  ['path', { d: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4' }],
  ['path', { d: 'm7 10 5 5 5-5' }],
  ['path', { d: 'M12 15V3' }],
];
export const coinLine: IconData = [
  ['circle', { cx: 12, cy: 12, r: 9 }],
  [
    'path',
    {
      d: 'M14.5 9.5A2.5 2 0 0 0 12 8c-1.5 0-2.5.8-2.5 2s1 1.6 2.5 2 2.5.8 2.5 2-1 2-2.5 2a2.5 2 0 0 1-2.5-1.5',
    },
  ],
  ['path', { d: 'M12 6.5V8m0 8v1.5' }],
];
export const briefcase: IconData = [
  ['rect', { x: 2, y: 7, width: 20, height: 14, rx: 2 }],
  ['path', { d: 'M16 21V5a2 2 0 0 0-2-2h-4a2 2 0 0 0-2 2v16' }],
];
