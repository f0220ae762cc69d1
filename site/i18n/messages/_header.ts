// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { header_account_menu } from './header_account_menu.ts';
export { header_account_settings } from './header_account_settings.ts';
export { header_close_menu } from './header_close_menu.ts';
export { header_credits_title } from './header_credits_title.ts';
export { header_login } from './header_login.ts';
export { header_menu_title } from './header_menu_title.ts';
export { header_open_menu } from './header_open_menu.ts';
export { header_sign_out } from './header_sign_out.ts';
