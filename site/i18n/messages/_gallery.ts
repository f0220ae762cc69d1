// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { gallery_by } from './gallery_by.ts';
export { gallery_category_all } from './gallery_category_all.ts';
export { gallery_category_animation } from './gallery_category_animation.ts';
export { gallery_category_movie } from './gallery_category_movie.ts';
export { gallery_category_other } from './gallery_category_other.ts';
export { gallery_category_product } from './gallery_category_product.ts';
export { gallery_category_talk_show } from './gallery_category_talk_show.ts';
export { gallery_empty } from './gallery_empty.ts';
export { gallery_filter_label } from './gallery_filter_label.ts';
export { gallery_frame_title } from './gallery_frame_title.ts';
export { gallery_loading } from './gallery_loading.ts';
export { gallery_more } from './gallery_more.ts';
export { gallery_status_all } from './gallery_status_all.ts';
export { gallery_status_category } from './gallery_status_category.ts';
