import { describe, expect, it } from 'vitest';
import {
  generatorPromptHref,
  PROMPT_MAX_LENGTH,
  promptFromSearch,
} from '../../site/islands/generator/prompt-prefill.ts';
import { GENERATOR_PATH } from '../../site/lib/site.ts';

describe('generator ?prompt= prefill', () => {
  it.each([
    ['no parameter', '?type=text', ''],
    ['an empty parameter', '?type=text&prompt=', ''],
    ['form-encoded spaces', '?type=text&prompt=a+cat+on+a+sofa', 'a cat on a sofa'],
    ['percent-encoded quotes', '?prompt=says%20%22hello%22', 'says "hello"'],
    ['surrounding whitespace', '?prompt=%20%0A%20rain%20on%20glass%20%0A', 'rain on glass'],
    ['only whitespace', '?prompt=%20%20%20', ''],
  ])('reads %s', (_, search, expected) => {
    expect(promptFromSearch(search)).toBe(expected);
  });

  it(`cuts a prompt longer than ${PROMPT_MAX_LENGTH} characters to the limit`, () => {
    const long = 'x'.repeat(PROMPT_MAX_LENGTH + 500);
    const prompt = promptFromSearch(`?${new URLSearchParams({ prompt: long })}`);
    expect(prompt).toHaveLength(PROMPT_MAX_LENGTH);
  });

  it('drops half an emoji rather than leave a broken character at the cut', () => {
    const prompt = promptFromSearch(`?${new URLSearchParams({ prompt: 'abcd🎄' })}`, 5);
    expect(prompt).toBe('abcd');
  });

  it('links to text mode with the prompt that the generator then reads back', () => {
    const prompt = 'A knife slices a glass kiwi, crisp "clink" sounds & no music';
    const href = generatorPromptHref(prompt);
    const url = new URL(href, 'http://localhost');
    expect(url.pathname).toBe(GENERATOR_PATH);
    expect(url.searchParams.get('type')).toBe('text');
    expect(promptFromSearch(url.search)).toBe(prompt);
  });
});
