/**
 * Import rules checked by `npm run lint` (dependency-cruiser): no import circles (type imports
 * included), the site never reaches into the server, core/ imports no domain and no config of
 * one, and a domain reaches another only through that domain's service or plugin.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles make modules impossible to load, test or move on their own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'site-not-server',
      severity: 'error',
      comment: 'The site imports only shared/, content/ and messages/: never server/.',
      from: { path: '^(site/|astro[.].*[.]mjs$)' },
      to: { path: '^server/' },
    },
    {
      name: 'core-no-domain',
      severity: 'error',
      comment:
        'core/ is the ground every domain stands on: it imports no domain and no config of one.',
      from: { path: '^server/core/' },
      to: { path: '^server/(domains/|config-video)' },
    },
    {
      name: 'domain-through-service',
      severity: 'error',
      comment: "A domain reaches another only through that domain's service.ts or plugin.ts.",
      from: { path: '^server/domains/([^/]+)/' },
      to: {
        path: '^server/domains/([^/]+)/',
        pathNot: ['^server/domains/$1/', '^server/domains/[^/]+/(service|plugin)[.]ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(server|shared|site|scripts|tests|content|messages|astro[.].*[.]mjs)',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
