/**
 * Makes the default share image, site/public/og/default.png (1200×630, the Open Graph and
 * Twitter large-card size), from content/site.json: brand, tagline and product name; and
 * site/public/og/logo.png (512×512), the raster logo the Organization JSON-LD names, since search
 * engines want a bitmap there. Run it again after changing those:
 * `node_modules/.bin/node scripts/make-og-image.ts`.
 *
 * The artwork is an SVG drawn here; the words are rendered by sharp's text input with the DejaVu
 * font from the dejavu-fonts-ttf package, so the image is the same on every machine whatever
 * fonts it has installed.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import site from '../content/site.json' with { type: 'json' };

const WIDTH = 1200;
const HEIGHT = 630;
/** Share images are fetched by every crawler that previews a link: keep them light. */
const MAX_BYTES = 100 * 1024;

const root = path.resolve(import.meta.dirname, '..');

const tokensCss = readFileSync(path.join(root, 'site/styles/tokens.css'), 'utf8');
/** A colour of the site's tokens, read from site/styles/tokens.css, where they are defined. */
function token(name: string): string {
  const value = new RegExp(`--${name}:\\s*(#[0-9a-f]{3,8})\\b`, 'i').exec(tokensCss)?.[1];
  if (!value) throw new Error(`site/styles/tokens.css has no hex colour --${name}`);
  return value;
}

const BG = token('color-bg');
const SURFACE = token('color-surface');
const BORDER = token('color-border');
const TEXT = token('color-text');
const MUTED = token('color-text-muted');
const ACCENT = token('color-accent');
const ACCENT_HOVER = token('color-accent-hover');
/** The artwork's highlight, lighter than the accent (not a colour of the site's UI). */
const ACCENT_LIGHT = '#9d91ff';

const out = path.join(root, 'site/public/og/default.png');
const logoOut = path.join(root, 'site/public/og/logo.png');
const fonts = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);

/**
 * Pango markup is XML: escape what the content may contain. Hyphens inside words become
 * non-breaking ones so "8-second" never splits across lines.
 */
const escape = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/(\w)-(\w)/g, '$1\u2011$2');

/** The brand mark (site/public/favicon.svg) drawn at `size` px. */
function logoMark(size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${ACCENT_LIGHT}"/>
      <stop offset="1" stop-color="${ACCENT_HOVER}"/>
    </linearGradient>
  </defs>
  <rect width="32" height="32" rx="9" fill="url(#g)"/>
  <path d="M12 9.5v13l10.5-6.5z" fill="#fff"/>
</svg>`;
}

/** Audio-wave bars under the play button: the product's clips always have sound. */
function waveBars(x: number, y: number, width: number): string {
  const heights = [14, 26, 40, 22, 52, 34, 60, 30, 44, 18, 36, 54, 28, 46, 20, 38, 24, 12];
  const step = width / heights.length;
  return heights
    .map((h, i) => {
      const bx = x + i * step + step * 0.2;
      return `<rect x="${bx.toFixed(1)}" y="${y - h / 2}" width="${(step * 0.6).toFixed(1)}" height="${h}" rx="3" fill="url(#accent)" opacity="0.9"/>`;
    })
    .join('');
}

/** Background, glows, logo mark and the decorative video card on the right. */
function artwork(): string {
  const card = { x: 770, y: 95, w: 350, h: 440 };
  const cx = card.x + card.w / 2;
  const cy = card.y + 185;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <radialGradient id="glow-a" cx="0.18" cy="0" r="0.75">
      <stop offset="0" stop-color="${ACCENT}" stop-opacity="0.30"/>
      <stop offset="1" stop-color="${ACCENT}" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="glow-b" cx="0.85" cy="0.55" r="0.5">
      <stop offset="0" stop-color="${ACCENT_HOVER}" stop-opacity="0.28"/>
      <stop offset="1" stop-color="${ACCENT_HOVER}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="accent" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${ACCENT_LIGHT}"/>
      <stop offset="1" stop-color="${ACCENT_HOVER}"/>
    </linearGradient>
    <linearGradient id="screen" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2a2560"/>
      <stop offset="1" stop-color="${SURFACE}"/>
    </linearGradient>
  </defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="${BG}"/>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#glow-a)"/>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#glow-b)"/>

  <g transform="translate(80 88)">
    <rect width="88" height="88" rx="24" fill="url(#accent)"/>
    <path d="M33 26v36l29-18z" fill="#fff"/>
  </g>

  <rect x="${card.x}" y="${card.y}" width="${card.w}" height="${card.h}" rx="28" fill="${SURFACE}" stroke="${BORDER}" stroke-width="2"/>
  <rect x="${card.x + 18}" y="${card.y + 18}" width="${card.w - 36}" height="300" rx="18" fill="url(#screen)"/>
  <circle cx="${cx}" cy="${cy}" r="54" fill="url(#accent)"/>
  <path d="M${cx - 16} ${cy - 26}v52l42-26z" fill="#fff"/>
  <rect x="${card.x + 38}" y="${card.y + 282}" width="${card.w - 76}" height="6" rx="3" fill="${BORDER}"/>
  <rect x="${card.x + 38}" y="${card.y + 282}" width="${(card.w - 76) * 0.45}" height="6" rx="3" fill="${ACCENT}"/>
  ${waveBars(card.x + 34, card.y + 378, card.w - 68)}
</svg>`;
}

/** One block of text as a transparent PNG layer. */
async function textLayer(
  markup: string,
  options: { font: string; file: string; width: number; spacing?: number },
) {
  return sharp({
    text: {
      text: markup,
      font: options.font,
      fontfile: path.join(fonts, options.file),
      width: options.width,
      spacing: options.spacing ?? 0,
      rgba: true,
      wrap: 'word',
    },
  })
    .png()
    .toBuffer();
}

const brand = await textLayer(`<span foreground="${TEXT}">${escape(site.brand)}</span>`, {
  font: 'DejaVu Sans Bold 66',
  file: 'DejaVuSans-Bold.ttf',
  width: 640,
});
const tagline = await textLayer(`<span foreground="${MUTED}">${escape(site.tagline)}</span>`, {
  font: 'DejaVu Sans 30',
  file: 'DejaVuSans.ttf',
  width: 620,
  spacing: 12,
});
const kicker = await textLayer(
  `<span foreground="${ACCENT_LIGHT}">${escape(`AI video generator · ${site.productName}`)}</span>`,
  { font: 'DejaVu Sans Bold 22', file: 'DejaVuSans-Bold.ttf', width: 640 },
);

mkdirSync(path.dirname(out), { recursive: true });
await sharp(Buffer.from(artwork()))
  .composite([
    { input: brand, left: 80, top: 218 },
    { input: tagline, left: 82, top: 330 },
    { input: kicker, left: 82, top: 500 },
  ])
  // A palette keeps the flat artwork small; the glows dither smoothly enough at 256 colours.
  .png({ palette: true, colours: 256, quality: 95, effort: 10, compressionLevel: 9 })
  .toFile(out);

await sharp(Buffer.from(logoMark(512)))
  .png({ palette: true, colours: 128, effort: 10, compressionLevel: 9 })
  .toFile(logoOut);

const { size } = statSync(out);
const meta = await sharp(out).metadata();
if (meta.width !== WIDTH || meta.height !== HEIGHT) {
  throw new Error(`${out} is ${meta.width}×${meta.height}, expected ${WIDTH}×${HEIGHT}.`);
}
if (size > MAX_BYTES)
  throw new Error(`${out} is ${size} bytes, over the ${MAX_BYTES}-byte budget.`);
console.log(`${path.relative(root, out)}: ${WIDTH}×${HEIGHT}, ${(size / 1024).toFixed(1)} KB`);
console.log(
  `${path.relative(root, logoOut)}: 512×512, ${(statSync(logoOut).size / 1024).toFixed(1)} KB`,
);
