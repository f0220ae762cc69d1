// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { language_hint_label } from './language_hint_label.ts';
export { language_hint_stay } from './language_hint_stay.ts';
export { language_hint_switch } from './language_hint_switch.ts';
export { language_hint_text } from './language_hint_text.ts';
export { language_label } from './language_label.ts';
export { language_switch_label } from './language_switch_label.ts';
