/**
 * Security headers on every answer. The CSP allows exactly what the pages need: our own scripts
 * plus the inline scripts of the current site release (by hash), Google Identity's script,
 * button frame and styles for sign-in, and GA4's script and collection hosts (used only after
 * a visitor accepts analytics cookies).
 *
 * These are the headers helmet 8 sent with the options we used (its defaults, our CSP, COOP for
 * the sign-in popup, no COEP, HSTS in production). They are written out here and built once
 * per site release instead: @fastify/helmet rebuilt the whole helmet middleware, CSP string
 * included, on every request, which cost more than most of our handlers.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const GOOGLE_GSI = 'https://accounts.google.com/gsi/';
// GA4 (site/lib/analytics.ts), loaded only after the visitor accepts analytics cookies.
const GA_SCRIPT = 'https://www.googletagmanager.com';
const GA_COLLECT = ['https://*.google-analytics.com', 'https://*.analytics.google.com', GA_SCRIPT];

/** CSP directives in header order; script-src gets the release's inline-script hashes appended. */
function cspDirectives(
  production: boolean,
  inlineScriptHashes: string[],
  mediaOrigins: string[],
): Array<[string, string[]]> {
  return [
    ['default-src', ["'self'"]],
    [
      'script-src',
      ["'self'", `${GOOGLE_GSI}client`, GA_SCRIPT, ...inlineScriptHashes.map((h) => `'${h}'`)],
    ],
    // Inline style attributes come from server-rendered islands; styles cannot run code.
    ['style-src', ["'self'", "'unsafe-inline'", `${GOOGLE_GSI}style`]],
    // Media origins: the bucket or CDN that /media/… and /uploads/… redirect to (S3 store).
    ['img-src', ["'self'", 'data:', 'blob:', 'https:', ...mediaOrigins]],
    ['media-src', ["'self'", 'blob:', ...mediaOrigins]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", GOOGLE_GSI, ...GA_COLLECT]],
    // Google sign-in, and the video hosts the blog's editor may embed (see the sanitizer).
    [
      'frame-src',
      [
        "'self'",
        GOOGLE_GSI,
        'https://www.youtube.com',
        'https://youtube.com',
        'https://www.youtube-nocookie.com',
        'https://youtube-nocookie.com',
        'https://player.vimeo.com',
        // Social posts an operator may put in the home gallery (site/lib/gallery.ts).
        'https://www.tiktok.com',
        'https://www.instagram.com',
        'https://platform.twitter.com',
        'https://twitter.com',
        'https://x.com',
      ],
    ],
    ['frame-ancestors', ["'self'"]],
    ['form-action', ["'self'"]],
    ['base-uri', ["'self'"]],
    ['object-src', ["'none'"]],
    ...(production ? [['upgrade-insecure-requests', []] as [string, string[]]] : []),
  ];
}

function contentSecurityPolicy(
  production: boolean,
  inlineScriptHashes: string[],
  mediaOrigins: string[] = [],
): string {
  return cspDirectives(production, inlineScriptHashes, mediaOrigins)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');
}

/** Every security header of an answer, lower-cased names. */
export function securityHeaders(
  production: boolean,
  inlineScriptHashes: string[],
  mediaOrigins: string[] = [],
): Record<string, string> & { 'content-security-policy': string } {
  return {
    'content-security-policy': contentSecurityPolicy(production, inlineScriptHashes, mediaOrigins),
    // Google's sign-in popup must be able to message the page that opened it.
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    // Browsers' old XSS auditors caused leaks of their own; 0 turns them off.
    'x-xss-protection': '0',
  };
}

/**
 * The headers of an API answer (JSON, never a document): nothing may load or frame it, so its
 * CSP is `default-src 'none'; frame-ancestors 'none'` (the OWASP REST advice) instead of the
 * pages' policy, and headers that only mean something to documents are left out. About 250
 * bytes instead of 1.9 KB on every API answer.
 */
export function apiSecurityHeaders(production: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/**
 * API paths answer JSON: /api/ (but /api/docs, the one HTML page, Swagger UI) and the public
 * API, /v1 (issue 36).
 */
export const isApiPath = (url: string) =>
  (url.startsWith('/api/') && !url.startsWith('/api/docs')) || /^\/v1(?:[/?]|$)/.test(url);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The headers of every answer that is not the API's, for the current release: the same
     * object until the release changes (answers written before Fastify use it: core/server.ts).
     */
    pageSecurityHeaders(): Record<string, string>;
    /** The headers of every API answer (the same object throughout). */
    apiHeaders: Readonly<Record<string, string>>;
  }
}

export const securityPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      production: boolean;
      inlineScriptHashes: () => string[];
      /** Origins media redirect to (the S3 store's bucket or CDN); none for local files. */
      mediaOrigins?: string[];
    },
  ) => {
    // A release switch replaces the hash array, so comparing identities is enough to notice it.
    let builtFor: string[] | null = null;
    let headers: Record<string, string> = {};
    const pageHeaders = () => {
      const hashes = opts.inlineScriptHashes();
      if (hashes !== builtFor) {
        headers = securityHeaders(opts.production, hashes, opts.mediaOrigins);
        builtFor = hashes;
      }
      return headers;
    };
    app.decorate('pageSecurityHeaders', pageHeaders);
    const api = apiSecurityHeaders(opts.production);
    app.decorate('apiHeaders', api);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiPath(request.url) ? api : pageHeaders());
      done();
    });
  },
  { name: 'security' },
);
