/** What the product spec says the content shows, and content fixtures, shared by unit and e2e tests. */

/** Spec 2 "Video effects": the category chips in order (the page adds "All" before them). */
export const SPEC_EFFECT_CATEGORIES = [
  'Interaction',
  'Appearance',
  'Emotions',
  'Entertainment',
  'Hero/Villain',
  'Horror/Fantasy',
  'Xmas',
  'Others',
];

/** A local gallery entry as content/gallery.json holds one; `overrides` replace its fields. */
export const galleryEntry = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'paper-fox',
  creator: 'Veo3 Studio',
  videoUrl: '/samples/paper-fox.mp4',
  embedUrl: '/embed/paper-fox',
  category: 'Animation',
  title: 'Paper fox',
  prompt: 'A paper fox in the snow',
  ...overrides,
});
