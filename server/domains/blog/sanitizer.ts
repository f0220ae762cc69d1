/**
 * Server-side allowlist for blog post bodies, run on every save. The body is rendered as raw HTML on
 * /blog/{slug}, so only what the admin's Quill 2 editor can produce with its toolbar (spec 2 "Blog
 * management") survives; the browser editor's own checks (spec 5) are never trusted.
 */
import sanitizeHtml from 'sanitize-html';
import type { Attributes, IFrame, IOptions, Tag } from 'sanitize-html';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
// Blocks that Quill's indent and align formats can decorate with classes.
const TEXT_BLOCKS = ['p', ...HEADINGS, 'li', 'blockquote'];
// Inline formats Quill may carry the colour/background attributors on (it puts the style on the
// innermost format element, e.g. `<strong style="color: …">`, not always on a span).
const INLINE_FORMATS = ['span', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'a'];

const INDENT_CLASSES = Array.from({ length: 8 }, (_, i) => `ql-indent-${i + 1}`);
const ALIGN_CLASSES = ['ql-align-center', 'ql-align-right', 'ql-align-justify'];
const CODE_CLASSES = ['ql-code-block-container', 'ql-code-block'];

const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'];
const IMAGE_SCHEMES = ['http', 'https', 'data'];
// Raster formats only: data:image/svg+xml can carry script.
const DATA_IMAGE_RE = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i;
// Our own upload routes; anything else relative is not something the editor inserts.
const OWN_IMAGE_PATH_RE = /^\/(?:uploads|media)\//;
const LOCAL_BASE = 'https://local.invalid';

const VIDEO_HOSTS: Readonly<Record<string, RegExp>> = {
  'youtube.com': /^\/embed\/[\w-]+\/?$/,
  'www.youtube.com': /^\/embed\/[\w-]+\/?$/,
  'youtube-nocookie.com': /^\/embed\/[\w-]+\/?$/,
  'www.youtube-nocookie.com': /^\/embed\/[\w-]+\/?$/,
  'player.vimeo.com': /^\/video\/\d+\/?$/,
};

// Colour values only: no url(), expression(), var() or anything else with parentheses but rgb/rgba.
const COLOUR_VALUES = [
  /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i,
  /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(?:,\s*(?:0|1|0?\.\d+|\d{1,3}%)\s*)?\)$/i,
  /^[a-z]{3,30}$/i,
];
const SIZE_VALUES = [/^(?:auto|\d{1,5}(?:\.\d+)?(?:px|%|em|rem|vw)?)$/i];
const DIMENSION_ATTR_RE = /^\d{1,5}%?$/;
const LANGUAGE_RE = /^[a-z0-9+#.-]{1,32}$/i;

// C0 controls, spaces and the invisible characters people use to split "java\tscript:" so a
// prefix check does not see the scheme. Browsers ignore some of these inside schemes.
const INVISIBLE_RE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/g;
const SCHEME_RE = /^([a-z][a-z0-9+.-]*):/i;

/** The scheme of a URL as a browser would read it, or null for a scheme-less (relative) URL. */
function schemeOf(url: string): string | null {
  const match = SCHEME_RE.exec(url.replace(INVISIBLE_RE, ''));
  return match?.[1]?.toLowerCase() ?? null;
}

/** A root-relative path on our own origin: "/x" but not "//host" or "/\host" (both leave the site). */
function isRootRelative(url: string): boolean {
  return /^\/(?![/\\])/.test(url.replace(INVISIBLE_RE, ''));
}

/** Spec 5: editor links are http, https, mailto or tel; same-site paths and #anchors are harmless. */
function safeLinkHref(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const href = raw.trim();
  const scheme = schemeOf(href);
  if (scheme !== null) return LINK_SCHEMES.includes(scheme) ? href : null;
  return isRootRelative(href) || href.startsWith('#') ? href : null;
}

/** Spec 5: editor images are http, https or a raster data URI; plus our own upload paths. */
function safeImageSrc(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const src = raw.trim();
  const scheme = schemeOf(src);
  if (scheme === 'http' || scheme === 'https') return src;
  if (scheme === 'data') return DATA_IMAGE_RE.test(src) ? src : null;
  if (scheme !== null || !isRootRelative(src)) return null;
  // Resolve dot segments so "/uploads/../api/x" cannot pass as an upload.
  const path = new URL(src, LOCAL_BASE).pathname;
  return OWN_IMAGE_PATH_RE.test(path) ? src : null;
}

/** Quill's video embed: https only, to an allowlisted player host and its embed path. */
function safeVideoSrc(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const src = raw.trim();
  if (schemeOf(src) !== 'https') return null;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  const pathRule = VIDEO_HOSTS[url.hostname];
  const plain =
    url.protocol === 'https:' && url.username === '' && url.password === '' && url.port === '';
  return plain && pathRule?.test(url.pathname) ? src : null;
}

/** Copies only the named attributes that are present. */
function pick(attribs: Attributes, names: readonly string[]): Attributes {
  const out: Attributes = {};
  for (const name of names) {
    const value = attribs[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function hasClass(attribs: Attributes, name: string): boolean {
  return (attribs.class ?? '').split(/\s+/).includes(name);
}

const transformTags: Record<string, (tagName: string, attribs: Attributes) => Tag> = {
  a(tagName, attribs) {
    const href = safeLinkHref(attribs.href);
    // Without href the exclusive filter unwraps the link, keeping its text.
    if (href === null) return { tagName, attribs: {} };
    // rel is forced: target="_blank" without noopener gives the new page window.opener.
    const out: Attributes = { ...pick(attribs, ['style']), href, rel: 'noopener noreferrer' };
    if (attribs.target?.trim().toLowerCase() === '_blank') out.target = '_blank';
    return { tagName, attribs: out };
  },
  img(tagName, attribs) {
    const src = safeImageSrc(attribs.src);
    // Without src the exclusive filter drops the image.
    if (src === null) return { tagName, attribs: {} };
    // An image the editor inserted without alt text is announced as decorative (alt=""), not
    // read out as its file name; authors who describe it keep their text.
    const out: Attributes = { alt: attribs.alt ?? '', ...pick(attribs, ['alt', 'style']), src };
    for (const dimension of ['width', 'height']) {
      const value = attribs[dimension]?.trim();
      if (value !== undefined && DIMENSION_ATTR_RE.test(value)) out[dimension] = value;
    }
    return { tagName, attribs: out };
  },
  iframe(tagName, attribs) {
    const src = safeVideoSrc(attribs.src);
    // Without src the exclusive filter drops the iframe together with whatever it wraps.
    if (src === null || !hasClass(attribs, 'ql-video')) return { tagName, attribs: {} };
    const out: Attributes = { class: 'ql-video', frameborder: '0', allowfullscreen: 'true', src };
    for (const dimension of ['width', 'height']) {
      const value = attribs[dimension]?.trim();
      if (value !== undefined && DIMENSION_ATTR_RE.test(value)) out[dimension] = value;
    }
    return { tagName, attribs: out };
  },
  li(tagName, attribs) {
    const out = pick(attribs, ['class']);
    const list = attribs['data-list']?.trim();
    if (list === 'bullet' || list === 'ordered') out['data-list'] = list;
    return { tagName, attribs: out };
  },
  div(tagName, attribs) {
    // Quill 2 writes code blocks as div.ql-code-block-container > div.ql-code-block; any other
    // div (pasted markup) becomes a paragraph so its text keeps its line.
    if (!CODE_CLASSES.some((name) => hasClass(attribs, name))) {
      return { tagName: 'p', attribs: pick(attribs, ['class']) };
    }
    return { tagName, attribs: withLanguage(attribs, ['class']) };
  },
  pre(tagName, attribs) {
    return { tagName, attribs: withLanguage(attribs, ['class']) };
  },
};

/** Keeps data-language only when it looks like a language name (Quill writes e.g. "javascript"). */
function withLanguage(attribs: Attributes, keep: readonly string[]): Attributes {
  const out = pick(attribs, keep);
  const language = attribs['data-language']?.trim();
  if (language !== undefined && LANGUAGE_RE.test(language)) out['data-language'] = language;
  return out;
}

/**
 * Runs when an element closes, on the attributes that survived. Rejected elements are removed here
 * rather than renamed to a disallowed tag in transformTags, because sanitize-html then writes the
 * renamed closing tag onto the next sibling at the same depth.
 */
function exclusiveFilter(frame: IFrame): boolean | 'excludeTag' {
  const kept = Object.keys(frame.attribs).length;
  switch (frame.tag) {
    case 'img':
    case 'iframe':
      return frame.attribs.src === undefined;
    case 'a':
      return frame.attribs.href === undefined ? 'excludeTag' : false;
    case 'span':
      // A bare span carries no format (Quill's empty `span.ql-ui` list markers end up here too).
      return kept === 0 ? 'excludeTag' : false;
    default:
      return false;
  }
}

const OPTIONS: IOptions = {
  allowedTags: [
    ...HEADINGS,
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'span',
    'sub',
    'sup',
    'ol',
    'ul',
    'li',
    'a',
    'img',
    'iframe',
    'blockquote',
    'pre',
    'div',
  ],
  allowedAttributes: {
    ...Object.fromEntries(INLINE_FORMATS.map((tag) => [tag, ['style']])),
    a: ['href', 'rel', { name: 'target', values: ['_blank'] }, 'style'],
    img: ['src', 'alt', 'width', 'height', 'style'],
    iframe: ['src', 'width', 'height', { name: 'frameborder', values: ['0'] }, 'allowfullscreen'],
    li: [{ name: 'data-list', values: ['bullet', 'ordered'] }],
    pre: ['data-language'],
    div: ['data-language'],
  },
  allowedClasses: {
    ...Object.fromEntries(TEXT_BLOCKS.map((tag) => [tag, [...INDENT_CLASSES, ...ALIGN_CLASSES]])),
    pre: ['ql-syntax', ...ALIGN_CLASSES],
    div: [...CODE_CLASSES, ...ALIGN_CLASSES],
    iframe: ['ql-video'],
  },
  allowedStyles: {
    // An empty wildcard makes any tag without its own rules lose every declaration, instead of
    // sanitize-html's default of keeping the style untouched.
    '*': {},
    ...Object.fromEntries(
      INLINE_FORMATS.map((tag) => [
        tag,
        { color: COLOUR_VALUES, 'background-color': COLOUR_VALUES },
      ]),
    ),
    img: { width: SIZE_VALUES, 'max-width': SIZE_VALUES, height: SIZE_VALUES },
  },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { img: IMAGE_SCHEMES, iframe: ['https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: Object.keys(VIDEO_HOSTS),
  allowIframeRelativeUrls: false,
  transformTags,
  disallowedTagsMode: 'discard',
  // A video embed has no readable content; whatever sits between its tags is an injection attempt.
  textFilter: (text, tagName) => (tagName === 'iframe' ? '' : text),
  // Dropped together with their content: code, styles, foreign documents and fallback markup are
  // never readable text, and keeping them would print source code into the article.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'select',
    'xmp',
    'title',
    'noscript',
    'noembed',
    'noframes',
    'template',
    'object',
    'svg',
    'math',
    'head',
    'plaintext',
  ],
  exclusiveFilter,
};

/** Reduces a post body to the formats the blog editor's toolbar can produce; everything else goes. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
