// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { home_create_first } from './home_create_first.ts';
export { home_eyebrow } from './home_eyebrow.ts';
export { home_fact_audio } from './home_fact_audio.ts';
export { home_fact_audio_label } from './home_fact_audio_label.ts';
export { home_fact_length } from './home_fact_length.ts';
export { home_fact_length_label } from './home_fact_length_label.ts';
export { home_fact_modes } from './home_fact_modes.ts';
export { home_fact_modes_label } from './home_fact_modes_label.ts';
export { home_facts_label } from './home_facts_label.ts';
export { home_lead } from './home_lead.ts';
export { home_page_title } from './home_page_title.ts';
export { home_see_pricing } from './home_see_pricing.ts';
export { home_title_accent } from './home_title_accent.ts';
export { home_title_before } from './home_title_before.ts';
export { home_title_length } from './home_title_length.ts';
export { home_title_middle } from './home_title_middle.ts';
export { home_try_now } from './home_try_now.ts';
