/**
 * The prompt caption burned into local renders. Prompts are untrusted user text: this module only
 * turns them into plain lines; the renderer hands those to drawtext through a file with expansion
 * off, so nothing in them is ever parsed by ffmpeg.
 */

/** Lines shown at most in a 16:9 frame; a longer prompt ends in an ellipsis. */
const CAPTION_MAX_LINES = 2;
/** Pixel budget per line at the caption's 38 px bold size (1280 px frame, 80 px margins). */
const CAPTION_LINE_WIDTH = 1120;

/** How wide and how many the caption lines of one frame may be (in 38 px type's pixels). */
export interface CaptionBox {
  lineWidth: number;
  maxLines: number;
}

/** The spec's 16:9 frame: two lines of 1120 px. */
export const LANDSCAPE_CAPTION: CaptionBox = {
  lineWidth: CAPTION_LINE_WIDTH,
  maxLines: CAPTION_MAX_LINES,
};
/** A 9:16 frame is 720 design pixels wide: narrower lines, one more of them. */
export const PORTRAIT_CAPTION: CaptionBox = { lineWidth: 560, maxLines: 3 };

const ELLIPSIS = '…';
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Approximate advance of one grapheme in DejaVu Sans Bold at 38 px. Deliberately generous, so a
 * line of wide capitals still fits: we cannot measure glyphs without shaping the text ourselves.
 */
function graphemeWidth(g: string): number {
  const cp = g.codePointAt(0) ?? 0;
  if (/^[\s.,:;'|!il1jtfrI()[\]]$/u.test(g)) return 15;
  if (/^[MWmw@%]$/u.test(g)) return 40;
  if (/^[A-Z]$/u.test(g)) return 32;
  if (/^[a-z]$/u.test(g)) return 25;
  // East Asian wide and fullwidth ranges take a full em.
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    cp >= 0x20000
  ) {
    return 40;
  }
  return 29;
}

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

function widthOf(text: string): number {
  return graphemes(text).reduce((sum, g) => sum + graphemeWidth(g), 0);
}

/**
 * Reduces a prompt to one line of printable text: control and format characters (newlines,
 * zero-width joiners, bidi overrides) become spaces or vanish, and pictographs from the emoji planes
 * are dropped because the bundled font has no glyphs for them and would draw empty boxes (the
 * older symbols it does cover, such as ★ ☀ ♥ © ™, stay).
 */
export function sanitizeCaption(prompt: string): string {
  return prompt
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/[\p{Cf}\u{FE00}-\u{FE0F}\u{1F000}-\u{1FAFF}]/gu, '')
    .replace(/[\p{Co}\p{Cs}\p{Cn}]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Ends `line` with an ellipsis, dropping trailing words (or graphemes of one long word) to fit. */
function withEllipsis(line: string, lineWidth: number): string {
  const budget = lineWidth - graphemeWidth(ELLIPSIS);
  let out = line;
  while (widthOf(out) > budget) {
    const cut = out.lastIndexOf(' ');
    out = cut > 0 ? out.slice(0, cut) : graphemes(out).slice(0, -1).join('');
  }
  return `${out.trimEnd()}${ELLIPSIS}`;
}

/** Splits a word wider than a whole line into line-sized pieces. */
function splitLongWord(word: string, lineWidth: number): string[] {
  if (widthOf(word) <= lineWidth) return [word];
  const pieces: string[] = [];
  let piece = '';
  for (const g of graphemes(word)) {
    if (piece && widthOf(piece + g) > lineWidth) {
      pieces.push(piece);
      piece = '';
    }
    piece += g;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Two lines of similar width (no lone last word), splitting at the best space that fits. */
function balanced(lines: string[]): string[] {
  const words = lines.join(' ').split(' ');
  let best = lines;
  let bestWidth = Math.max(...lines.map(widthOf));
  for (let i = 1; i < words.length; i += 1) {
    const pair = [words.slice(0, i).join(' '), words.slice(i).join(' ')];
    const widest = Math.max(...pair.map(widthOf));
    if (widest < bestWidth) [best, bestWidth] = [pair, widest];
  }
  return best;
}

/**
 * Word-wraps the sanitized prompt into at most `box.maxLines` lines; a word longer than a line
 * is split by graphemes, and a prompt that does not fit ends in an ellipsis.
 */
export function captionLines(prompt: string, box: CaptionBox = LANDSCAPE_CAPTION): string[] {
  const { lineWidth, maxLines } = box;
  const text = sanitizeCaption(prompt);
  if (!text) return [];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ').flatMap((w) => splitLongWord(w, lineWidth))) {
    const candidate = current ? `${current} ${word}` : word;
    if (widthOf(candidate) <= lineWidth) {
      current = candidate;
    } else {
      lines.push(current);
      current = word;
    }
  }
  lines.push(current);
  if (lines.length === 2) return balanced(lines);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = withEllipsis(kept[maxLines - 1]!, lineWidth);
  return kept;
}

/** The negative prompt's caption type is smaller than the prompt's: 30 px against 38. */
const NEGATIVE_CAPTION_SCALE = 30 / 38;

/**
 * The negative prompt as one caption line ("without: …"), shown under the prompt in smaller type
 * so a local render shows what was asked; null when there is none. Cut with an ellipsis to fit.
 */
export function negativeCaptionLine(
  negativePrompt: string | null,
  box: CaptionBox = LANDSCAPE_CAPTION,
): string | null {
  const text = negativePrompt ? sanitizeCaption(negativePrompt) : '';
  if (!text) return null;
  const line = `without: ${text}`;
  const lineWidth = box.lineWidth / NEGATIVE_CAPTION_SCALE;
  return widthOf(line) <= lineWidth ? line : withEllipsis(line, lineWidth);
}
