/**
 * Security headers on every answer. The CSP allows exactly what the pages need: our own scripts
 * plus the inline scripts of the current site release (by hash), Google Identity's script,
 * button frame and styles for sign-in, and GA4's script and collection hosts (used only after
 * a visitor accepts analytics cookies).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

const GOOGLE_GSI = 'https://accounts.google.com/gsi/';
// GA4 (site/lib/analytics.ts), loaded only after the visitor accepts analytics cookies.
const GA_SCRIPT = 'https://www.googletagmanager.com';
const GA_COLLECT = ['https://*.google-analytics.com', 'https://*.analytics.google.com', GA_SCRIPT];

export const securityPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { production: boolean; inlineScriptHashes: () => string[] },
  ) => {
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: [
            "'self'",
            `${GOOGLE_GSI}client`,
            GA_SCRIPT,
            () =>
              opts
                .inlineScriptHashes()
                .map((h) => `'${h}'`)
                .join(' '),
          ],
          // Inline style attributes come from server-rendered islands; styles cannot run code.
          styleSrc: ["'self'", "'unsafe-inline'", `${GOOGLE_GSI}style`],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", GOOGLE_GSI, ...GA_COLLECT],
          // Google sign-in, and the video hosts the blog's editor may embed (see the sanitizer).
          frameSrc: [
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
          frameAncestors: ["'self'"],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          ...(opts.production ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // Google's sign-in popup must be able to message the page that opened it.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: opts.production
        ? { maxAge: 31_536_000, includeSubDomains: true }
        : false,
    });
  },
  { name: 'security' },
);
