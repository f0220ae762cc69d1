/**
 * /robots.txt: what crawlers may fetch, and where the sitemap is (absolute, from the configured
 * site URL, so each deployment points at its own origin).
 *
 * Disallowed: the API and sign-in endpoints, the local checkout, users' generated videos
 * (/media/, private to each account), and the pages the page table (shared/pages.ts) calls
 * private, in every language: the pages that only make sense signed in, and the pages mailed
 * links open (/verify-email, /reset-password: their URLs carry single-use tokens). Pages that are
 * public but not meant for results (the 404, the article shell, /embed/{id}) stay crawlable on
 * purpose: they carry `noindex`, and a crawler must be able to fetch a page to see it. The
 * /embed/ pages also have to be fetchable for a search engine to render the home gallery, which
 * shows them in iframes.
 */
import type { APIRoute } from 'astro';
import { privatePaths } from '../../shared/pages.ts';

/** Path prefixes no crawler should fetch. robots.txt rules are prefixes, so no trailing `*`. */
const DISALLOWED = ['/api/', '/auth/', '/checkout/', '/media/', ...privatePaths()];

export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap-index.xml', site);
  const body = [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${sitemap.href}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
