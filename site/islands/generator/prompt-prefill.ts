/**
 * The generator's `?prompt=` parameter: effect cards and landing pages link to the generator with
 * a ready-made prompt, and the generator starts from it. Both directions live here so the link
 * and the reader cannot drift apart.
 */
import { generatorHref } from '../../lib/site.ts';
import { MAX_PROMPT_LENGTH } from '../../../shared/video.ts';

/** The prompt textarea's limit; a prefilled prompt is cut to it like typed text would be. */
export const PROMPT_MAX_LENGTH = MAX_PROMPT_LENGTH;

const PARAM = 'prompt';

/** Link to the generator in text mode with `prompt` filled in. */
export function generatorPromptHref(prompt: string): string {
  return `${generatorHref('text')}&${new URLSearchParams({ [PARAM]: prompt.trim() })}`;
}

/**
 * The prompt a generator URL asks for (`location.search`), trimmed and cut to `max` characters
 * without splitting an emoji's surrogate pair; '' when there is none.
 */
export function promptFromSearch(search: string, max = PROMPT_MAX_LENGTH): string {
  const prompt = (new URLSearchParams(search).get(PARAM) ?? '').trim();
  if (prompt.length <= max) return prompt;
  const cut = prompt.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return (splitsPair ? cut.slice(0, -1) : cut).trimEnd();
}
