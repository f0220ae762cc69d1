/**
 * Quill 2 for the article editor (spec 2 "Editor toolbar", 5 "editor link/image protocols",
 * 9 "Editor undo history"). Loaded only in the browser, by a dynamic import: Quill reads
 * `document` and `Node` as soon as it is evaluated.
 *
 * Built on `quill/core` with only the formats the toolbar offers, so pasted fonts, sizes,
 * tables or formulas fall away instead of reaching the server's sanitizer.
 */
import Quill from 'quill/core.js';
import { AlignClass } from 'quill/formats/align.js';
import { BackgroundStyle } from 'quill/formats/background.js';
import Blockquote from 'quill/formats/blockquote.js';
import Bold from 'quill/formats/bold.js';
import CodeBlock from 'quill/formats/code.js';
import { ColorStyle } from 'quill/formats/color.js';
import Header from 'quill/formats/header.js';
import Image from 'quill/formats/image.js';
import Indent from 'quill/formats/indent.js';
import Italic from 'quill/formats/italic.js';
import Link, { sanitize } from 'quill/formats/link.js';
import List from 'quill/formats/list.js';
import Script from 'quill/formats/script.js';
import Strike from 'quill/formats/strike.js';
import Underline from 'quill/formats/underline.js';
import Video from 'quill/formats/video.js';
import Toolbar from 'quill/modules/toolbar.js';
import SnowTheme from 'quill/themes/snow.js';

/** Spec 5: link addresses limited to http, https, mailto, tel. */
export const LINK_PROTOCOLS = ['http', 'https', 'mailto', 'tel'];
/** Spec 5: image sources limited to http, https, data. */
export const IMAGE_PROTOCOLS = ['http', 'https', 'data'];
/** Embedded videos are web pages: http and https only. */
export const VIDEO_PROTOCOLS = ['http', 'https'];

const LINK_REFUSED = 'Use an address that starts with http://, https://, mailto: or tel:';
const VIDEO_REFUSED = 'Use a video address that starts with http:// or https://';

/** Spec 7: an uploaded image is inserted at width 100%, max-width 800px, height auto. */
export const INLINE_IMAGE_STYLE = 'width: 100%; max-width: 800px; height: auto;';

/** `example.com/page` typed into the link box means https, not a path on this site. */
function withScheme(url: string): string {
  const value = url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || /^[/?#.]/.test(value)) return value;
  if (/^[^\s/]+\.[a-z]{2,}(?:[/?#:]|$)/i.test(value)) return `https://${value}`;
  return value;
}

/** Links: spec 5 protocols only; anything else becomes about:blank, as in Quill. */
class SafeLink extends Link {
  static override PROTOCOL_WHITELIST = LINK_PROTOCOLS;

  static override sanitize(url: string): string {
    const value = withScheme(url);
    return sanitize(value, this.PROTOCOL_WHITELIST) ? value : this.SANITIZED_URL;
  }
}

const IMAGE_ATTRIBUTES = ['alt', 'height', 'width', 'style'];

/**
 * Images: spec 5 protocols only, and the `style` attribute is part of the format so the
 * inserted size (width 100%, max-width 800px) survives saving and reopening the article.
 */
class ArticleImage extends Image {
  static override sanitize(url: string): string {
    return sanitize(url, IMAGE_PROTOCOLS) ? url : '//:0';
  }

  static override formats(domNode: Element): Record<string, string | null> {
    const formats: Record<string, string | null> = {};
    for (const attribute of IMAGE_ATTRIBUTES) {
      if (domNode.hasAttribute(attribute)) formats[attribute] = domNode.getAttribute(attribute);
    }
    return formats;
  }

  override format(name: string, value: string): void {
    if (!IMAGE_ATTRIBUTES.includes(name)) {
      super.format(name, value);
    } else if (value) {
      this.domNode.setAttribute(name, value);
    } else {
      this.domNode.removeAttribute(name);
    }
  }
}

/** Videos: Quill lets mailto and sms through to an iframe; only web addresses make sense. */
class SafeVideo extends Video {
  static override sanitize(url: string): string {
    const value = withScheme(url);
    return sanitize(value, VIDEO_PROTOCOLS) ? value : 'about:blank';
  }
}

Quill.register(
  {
    'formats/align': AlignClass,
    'formats/background': BackgroundStyle,
    'formats/blockquote': Blockquote,
    'formats/bold': Bold,
    'formats/code-block': CodeBlock,
    'formats/color': ColorStyle,
    'formats/header': Header,
    'formats/image': ArticleImage,
    'formats/indent': Indent,
    'formats/italic': Italic,
    'formats/link': SafeLink,
    'formats/list': List,
    'formats/script': Script,
    'formats/strike': Strike,
    'formats/underline': Underline,
    'formats/video': SafeVideo,
    'modules/toolbar': Toolbar,
    'themes/snow': SnowTheme,
  },
  true,
);

/** Spec 2 "Editor toolbar", in the spec's order. */
const TOOLBAR = [
  [{ header: [1, 2, 3, 4, 5, 6, false] }],
  ['bold', 'italic', 'underline', 'strike'],
  [{ color: [] }, { background: [] }],
  [{ list: 'ordered' }, { list: 'bullet' }],
  [{ indent: '-1' }, { indent: '+1' }],
  [{ align: [] }],
  ['link', 'image', 'video'],
  ['blockquote', 'code-block'],
  [{ script: 'sub' }, { script: 'super' }],
  ['clean'],
];

/** Names for the toolbar's icon buttons, keyed by class and value. */
const BUTTON_LABELS: Record<string, string> = {
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strike: 'Strikethrough',
  'list:ordered': 'Numbered list',
  'list:bullet': 'Bulleted list',
  'indent:-1': 'Decrease indent',
  'indent:+1': 'Increase indent',
  link: 'Link',
  image: 'Insert image',
  video: 'Insert video',
  blockquote: 'Quote',
  'code-block': 'Code block',
  'script:sub': 'Subscript',
  'script:super': 'Superscript',
  clean: 'Clear formatting',
};

const PICKER_LABELS: Record<string, string> = {
  header: 'Text style',
  color: 'Text colour',
  background: 'Background colour',
  align: 'Alignment',
};

function pickerItemLabel(format: string, value: string | null): string {
  switch (format) {
    case 'header':
      return value ? `Heading ${value}` : 'Normal text';
    case 'align':
      return value ? `Align ${value}` : 'Align left';
    case 'color':
      return value ? `Text colour ${value}` : 'Default text colour';
    case 'background':
      return value ? `Background colour ${value}` : 'No background colour';
    default:
      return value ?? format;
  }
}

function formatOf(element: Element): string | null {
  const name = Array.from(element.classList).find((className) => className.startsWith('ql-'));
  return name ? name.slice(3) : null;
}

/**
 * Quill's icons have no names and its pickers answer Enter only: name every control, and let
 * Space work on the pickers' spans as it does on a button.
 */
function labelToolbar(toolbar: HTMLElement): void {
  toolbar.setAttribute('aria-label', 'Formatting');
  for (const button of toolbar.querySelectorAll('button')) {
    const format = formatOf(button);
    if (!format) continue;
    const label = BUTTON_LABELS[button.value ? `${format}:${button.value}` : format];
    if (!label) continue;
    button.setAttribute('aria-label', label);
    button.title = label;
  }
  for (const picker of toolbar.querySelectorAll<HTMLElement>('.ql-picker')) {
    const format = formatOf(picker);
    if (!format) continue;
    const label = picker.querySelector('.ql-picker-label');
    label?.setAttribute('aria-label', PICKER_LABELS[format] ?? format);
    label?.setAttribute('title', PICKER_LABELS[format] ?? format);
    for (const item of picker.querySelectorAll('.ql-picker-item')) {
      const name = pickerItemLabel(format, item.getAttribute('data-value'));
      item.setAttribute('aria-label', name);
      item.setAttribute('title', name);
    }
  }
  toolbar.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    if (event.key !== ' ' || !target.matches('.ql-picker-label, .ql-picker-item')) return;
    event.preventDefault();
    target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
}

export interface ArticleEditorOptions {
  /** Id of the visible label of the content field. */
  labelledBy: string;
  describedBy?: string;
  placeholder: string;
  /** The image button: choose, check, upload, then call `insertImage`. */
  onImageButton: (editor: ArticleEditor) => void;
}

export interface ArticleEditor {
  quill: Quill;
  /** The article HTML to save: Quill's own markup, which reopens in Quill unchanged. */
  getHTML(): string;
  /** Spec 5: empty means no text once trimmed, and no image or video. */
  isEmpty(): boolean;
  /** Replace the content without an undo entry (opening an article). */
  setHTML(html: string): void;
  /** Insert an uploaded image at the remembered cursor, or at the start (spec 7). */
  insertImage(url: string, index: number | null): void;
  destroy(): void;
}

interface SnowTooltip {
  root: HTMLElement;
  textbox: HTMLInputElement | null;
  save: () => void;
}

/**
 * The link and video box: refuse an address the blots would blank out (spec 5 protocols), with
 * the browser's own validation message, instead of inserting a dead link or an empty frame.
 */
function guardTooltip(quill: Quill): void {
  const tooltip = (quill.theme as unknown as { tooltip?: SnowTooltip }).tooltip;
  const textbox = tooltip?.textbox;
  if (!tooltip || !textbox) return;
  const save = tooltip.save.bind(tooltip);
  textbox.addEventListener('input', () => textbox.setCustomValidity(''));
  tooltip.save = () => {
    const mode = tooltip.root.getAttribute('data-mode');
    const value = textbox.value.trim();
    let problem = '';
    if (mode === 'link' && value && SafeLink.sanitize(value) === SafeLink.SANITIZED_URL) {
      problem = LINK_REFUSED;
    } else if (mode === 'video' && SafeVideo.sanitize(value) === 'about:blank') {
      problem = VIDEO_REFUSED;
    }
    if (problem) {
      textbox.setCustomValidity(problem);
      textbox.reportValidity();
      return;
    }
    textbox.setCustomValidity('');
    save();
  };
}

/** Quill's Delta class; imported through Quill because its own package's CJS typings do not
 * resolve as a class under NodeNext. */
type QuillDelta = ReturnType<Quill['getContents']>;
const Delta = Quill.import('delta') as unknown as new () => QuillDelta;

/** True when the delta holds an image or a video. */
function hasEmbeds(contents: QuillDelta): boolean {
  return contents.ops.some(
    (op: QuillDelta['ops'][number]) =>
      typeof op.insert === 'object' &&
      op.insert !== null &&
      ('image' in op.insert || 'video' in op.insert),
  );
}

/**
 * Quill's own HTML rather than `getSemanticHTML()`: in Quill 2.0.3 the latter turns every space
 * into `&nbsp;` (slab/quill#4509) and videos into plain links, so it does not come back the same.
 * The editor-only pieces (list markers, the formatting cursor, trailing blank lines) are left out.
 */
function articleHTML(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const node of copy.querySelectorAll('.ql-ui, .ql-cursor')) node.remove();
  for (const node of copy.querySelectorAll('[contenteditable]')) {
    node.removeAttribute('contenteditable');
  }
  // Quill always keeps an empty line after a trailing image or video; the article does not need it.
  while (copy.childElementCount > 1 && copy.lastElementChild?.outerHTML === '<p><br></p>') {
    copy.lastElementChild.remove();
  }
  return copy.innerHTML;
}

/** Create the editor inside `host` (the toolbar is placed before it). */
export function createArticleEditor(
  host: HTMLElement,
  options: ArticleEditorOptions,
): ArticleEditor {
  let editor: ArticleEditor | null = null;
  const quill = new Quill(host, {
    theme: 'snow',
    placeholder: options.placeholder,
    modules: {
      toolbar: {
        container: TOOLBAR,
        handlers: {
          image: () => {
            if (editor) options.onImageButton(editor);
          },
        },
      },
      // Spec 9: 100 undo entries, edits within 1000 ms merge into one.
      history: { delay: 1000, maxStack: 100, userOnly: true },
      // Tab leaves the editor (no keyboard trap); it still indents lists, quotes and code.
      keyboard: { bindings: { tab: false } },
    },
  });

  const toolbar = quill.getModule('toolbar') as Toolbar;
  labelToolbar(toolbar.container as HTMLElement);
  guardTooltip(quill);
  const root = quill.root;
  root.setAttribute('role', 'textbox');
  root.setAttribute('aria-multiline', 'true');
  root.setAttribute('aria-required', 'true');
  root.setAttribute('aria-labelledby', options.labelledBy);
  if (options.describedBy) root.setAttribute('aria-describedby', options.describedBy);
  root.setAttribute('data-gramm', 'false');

  editor = {
    quill,
    getHTML: () => articleHTML(root),
    isEmpty: () => quill.getText().trim() === '' && !hasEmbeds(quill.getContents()),
    setHTML(html: string) {
      const contents = quill.clipboard.convert({ html });
      quill.setContents(contents, 'silent');
      quill.history.clear();
    },
    insertImage(url: string, index: number | null) {
      const at = index ?? 0;
      quill.updateContents(
        new Delta().retain(at).insert({ image: url }, { style: INLINE_IMAGE_STYLE }),
        'user',
      );
      quill.setSelection(at + 1, 'silent');
    },
    destroy() {
      (toolbar.container as HTMLElement | null)?.remove();
      host.replaceChildren();
    },
  };
  return editor;
}
