/**
 * The URL prefixes the Fastify server answers itself; every other path is a page of the static
 * site. `npm run dev` proxies exactly these from Astro's dev server to the API (astro.config.mjs),
 * and a test fails when a route is registered outside them (tests/api/server-paths.test.ts).
 */
export const SERVER_PATH_PREFIXES = [
  '/api',
  '/auth',
  '/checkout',
  '/media',
  '/uploads',
  '/samples',
  // The public API for developers (issue 36).
  '/v1',
] as const;
