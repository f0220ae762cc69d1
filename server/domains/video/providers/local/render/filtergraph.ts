/**
 * Building ffmpeg filtergraph text safely. A value goes through two parsers: the filter's option
 * parser (where `:` separates options and `\` / `'` quote) and then the graph parser (where
 * `[ ] , ;` separate filters). Escaping each level in turn means no value, however odd, can end
 * its option or start a new filter.
 */

/** A number as ffmpeg's expression parser reads it: fixed-point, never exponent notation. */
export function num(value: number, digits = 4): string {
  const fixed = value.toFixed(digits);
  // Drop trailing zeros for shorter graphs; "-0" would still parse, but keep the text tidy.
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** Escapes one option value for the filter's own option parser (first level). */
export function escapeOptionValue(value: string): string {
  return value.replace(/[\\':]/g, (ch) => `\\${ch}`);
}

/** Escapes a filter's argument string for the filtergraph parser (second level). */
export function escapeGraphText(text: string): string {
  return text.replace(/[\\'[\],;]/g, (ch) => `\\${ch}`);
}

/** One filter with named options, e.g. `filter('scale', { w: 1280, h: 720 })`. */
export function filter(name: string, options: Record<string, string | number> = {}): string {
  const args = Object.entries(options)
    .map(([key, value]) => `${key}=${escapeOptionValue(String(value))}`)
    .join(':');
  return args ? `${name}=${escapeGraphText(args)}` : name;
}

/** A linear chain `[in]f1,f2[out]`; labels are our own identifiers, never user text. */
export function chain(inputs: string[], filters: string[], outputs: string[]): string {
  const label = (names: string[]) => names.map((n) => `[${n}]`).join('');
  return `${label(inputs)}${filters.join(',')}${label(outputs)}`;
}
