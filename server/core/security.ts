/**
 * Security headers on every answer. The CSP allows exactly what the pages need: our own scripts
 * plus the inline scripts of the current site release (by hash), and Google Identity's script,
 * button frame and styles for sign-in.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

const GOOGLE_GSI = 'https://accounts.google.com/gsi/';

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
          connectSrc: ["'self'", GOOGLE_GSI],
          // Google sign-in, and the video hosts the blog's editor may embed (see the sanitizer).
          frameSrc: [
            "'self'",
            GOOGLE_GSI,
            'https://www.youtube.com',
            'https://youtube.com',
            'https://www.youtube-nocookie.com',
            'https://youtube-nocookie.com',
            'https://player.vimeo.com',
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
