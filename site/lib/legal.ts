/**
 * The values the legal pages (content/legal/*.md) name with `{{name}}` placeholders, and the fill
 * that puts them in: content/legal/policy.json (refund numbers), content/site.json (brand,
 * mailboxes) and the video contract (cost, length), so each value has one source. The page
 * (site/pages/[...locale]/[legal].astro) and the test tying the text to the product behaviour
 * (tests/security/legal-text-matches-behaviour.test.ts) both fill through here.
 */
import policy from '../../content/legal/policy.json' with { type: 'json' };
import { VIDEO_COST, VIDEO_SECONDS } from '../../shared/video.ts';
import { BRAND, MAILBOXES, PRODUCT_NAME } from './site.ts';

/** A legal page's front matter. */
export interface LegalFrontmatter {
  title: string;
  description: string;
  updated: string | Date;
}

/**
 * The routes of a folder of legal pages, each checked: front matter complete, description short
 * enough for a search result. `pages` is the folder's `import.meta.glob` (eager).
 */
export function legalRoutes<T extends { frontmatter: LegalFrontmatter }>(
  pages: Record<string, T>,
): { params: { legal: string }; props: { page: T; slug: string } }[] {
  return Object.entries(pages).map(([file, page]) => {
    const slug = file.split('/').pop()!.replace(/\.md$/, '');
    const { title, description, updated } = page.frontmatter;
    if (!title || !description || !updated) {
      throw new Error(`${file}: front matter needs title, description and updated.`);
    }
    if (description.length > 155) {
      throw new Error(`${file}: description is ${description.length} characters (max 155).`);
    }
    return { params: { legal: slug }, props: { page, slug } };
  });
}

const LEGAL_VALUES: Readonly<Record<string, string | number>> = {
  ...policy,
  brand: BRAND,
  productName: PRODUCT_NAME,
  supportEmail: MAILBOXES.support!,
  billingEmail: MAILBOXES.billing!,
  videoCost: VIDEO_COST,
  videoSeconds: VIDEO_SECONDS,
};

/**
 * Fills `{{name}}` in rendered HTML. Markdown percent-encodes braces inside link targets
 * (`mailto:{{billingEmail}}` becomes `mailto:%7B%7BbillingEmail%7D%7D`), so both forms match.
 * An unknown name throws (naming `page`) rather than shipping a visible placeholder.
 */
export function fillLegalPlaceholders(html: string, page: string): string {
  return html.replace(/(?:\{\{|%7B%7B)\s*(\w+)\s*(?:\}\}|%7D%7D)/gi, (_, name: string) => {
    if (!(name in LEGAL_VALUES)) throw new Error(`${page}: unknown placeholder {{${name}}}.`);
    return String(LEGAL_VALUES[name]);
  });
}
