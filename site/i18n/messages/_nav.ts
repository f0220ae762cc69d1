// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { nav_ai_tools } from './nav_ai_tools.ts';
export { nav_blog } from './nav_blog.ts';
export { nav_blog_admin } from './nav_blog_admin.ts';
export { nav_history } from './nav_history.ts';
export { nav_home } from './nav_home.ts';
export { nav_image_to_video } from './nav_image_to_video.ts';
export { nav_image_to_video_hint } from './nav_image_to_video_hint.ts';
export { nav_main_label } from './nav_main_label.ts';
export { nav_pricing } from './nav_pricing.ts';
export { nav_text_to_video } from './nav_text_to_video.ts';
export { nav_text_to_video_hint } from './nav_text_to_video_hint.ts';
