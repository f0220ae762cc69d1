/**
 * Line icons for the home features, by the names content/home.json uses. 24×24 SVG inner markup,
 * stroked with currentColor; our own constants, never content, so they are safe to inline.
 */
export const FEATURE_ICONS = {
  sound:
    '<path d="M11 5 6 9H2v6h4l5 4V5z"/><path d="M15.5 8.5a5 5 0 0 1 0 7"/><path d="M19 5a10 10 0 0 1 0 14"/>',
  text: '<path d="M4 7V4h16v3"/><path d="M9 20h6"/><path d="M12 4v16"/>',
  image:
    '<rect x="3" y="3" width="18" height="18" rx="2"/><circle cx="8.5" cy="8.5" r="1.5"/><path d="m21 15-5-5L5 21"/>',
  download:
    '<path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4"/><path d="m7 10 5 5 5-5"/><path d="M12 15V3"/>',
  credits:
    '<circle cx="12" cy="12" r="9"/><path d="M14.5 9.5A2.5 2 0 0 0 12 8c-1.5 0-2.5.8-2.5 2s1 1.6 2.5 2 2.5.8 2.5 2-1 2-2.5 2a2.5 2 0 0 1-2.5-1.5"/><path d="M12 6.5V8m0 8v1.5"/>',
  rights:
    '<rect x="2" y="7" width="20" height="14" rx="2"/><path d="M16 21V5a2 2 0 0 0-2-2h-4a2 2 0 0 0-2 2v16"/>',
} as const satisfies Record<string, string>;

export type FeatureIconName = keyof typeof FEATURE_ICONS;

export const isFeatureIcon = (name: string): name is FeatureIconName => name in FEATURE_ICONS;
