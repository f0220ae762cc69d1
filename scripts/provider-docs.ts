/**
 * Writes every list of video provider variables from PROVIDERS
 * (server/domains/video/providers/index.ts): README's "Video provider variables" table, the
 * providers' section of .env.example, and deploy/'s .env.example and compose.yaml (hosted
 * providers' variables, test doubles' URLs left out). Each lives between two marker lines;
 * tests/unit/provider-docs.test.ts fails while a file differs from what this writes.
 *
 *   node scripts/provider-docs.ts --write   rewrite the sections
 *   node scripts/provider-docs.ts           list the files that differ (exit 1 if any)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PROVIDERS } from '../server/domains/video/providers/index.ts';
import type { ProviderEnvVar } from '../server/domains/video/providers/descriptor.ts';

const ROOT = new URL('../', import.meta.url);

/** What a production deployment sets: hosted providers' variables, no test-double URLs. */
const deployed = (): ProviderEnvVar[] =>
  PROVIDERS.filter((p) => !p.localOnly).flatMap((p) => p.env.filter((v) => !v.testDouble));

/** A markdown table as prettier lays it out (each column as wide as its widest cell). */
function markdownTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(3, ...rows.map((row) => [...row[i]!].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length)).join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head!), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function readmeTable(): string {
  const rows = PROVIDERS.flatMap((p) =>
    p.env.map((v) => [`\`${v.name}\``, v.default ? `\`${v.default}\`` : 'empty', v.description]),
  );
  return `\n${markdownTable([['variable', 'default', 'meaning'], ...rows])}\n`;
}

function envExample(): string {
  const plain = (text: string) => text.replaceAll('`', '');
  return PROVIDERS.flatMap((p) => [
    `# ${p.name} (${p.title})${p.localOnly ? ': local mode only' : ''}`,
    ...p.env.flatMap((v) => [`# ${v.name}: ${plain(v.description)}.`, `${v.name}=${v.default}`]),
  ]).join('\n');
}

/** Each file's generated section: its marker lines and the text between them. */
export const SECTIONS = [
  {
    file: 'README.md',
    start: '<!-- provider-variables: start (node scripts/provider-docs.ts --write) -->',
    end: '<!-- provider-variables: end -->',
    render: readmeTable,
  },
  {
    file: '.env.example',
    start: '# ---- Video providers (node scripts/provider-docs.ts --write) ----',
    end: '# ---- End of video providers ----',
    render: envExample,
  },
  {
    file: 'deploy/.env.example',
    start: '# ---- Video providers (node scripts/provider-docs.ts --write) ----',
    end: '# ---- End of video providers ----',
    render: () =>
      deployed()
        .map((v) => `${v.name}=${v.default}`)
        .join('\n'),
  },
  {
    file: 'deploy/compose.yaml',
    start: '  # ---- Video providers (node scripts/provider-docs.ts --write) ----',
    end: '  # ---- End of video providers ----',
    render: () =>
      deployed()
        .map((v) => `  ${v.name}: \${${v.name}:-${v.default}}`)
        .join('\n'),
  },
] as const;

type Section = (typeof SECTIONS)[number];

/** The file's text with its section as PROVIDERS says; throws when a marker is missing. */
export function withSection(text: string, section: Section): string {
  const from = text.indexOf(`${section.start}\n`);
  const to = text.indexOf(`\n${section.end}`, from);
  if (from < 0 || to < 0) {
    throw new Error(
      `${section.file}: the lines "${section.start}" and "${section.end}" must exist.`,
    );
  }
  const head = text.slice(0, from + section.start.length + 1);
  return `${head}${section.render()}${text.slice(to)}`;
}

/** The text between a file's markers (for checks that look outside it). */
export function sectionText(text: string, section: Section): string {
  const from = text.indexOf(`${section.start}\n`);
  const to = text.indexOf(`\n${section.end}`, from);
  return text.slice(from + section.start.length + 1, to);
}

export const readRepoFile = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');

if (import.meta.main) {
  const write = process.argv.includes('--write');
  const stale = SECTIONS.filter((section) => {
    const text = readRepoFile(section.file);
    const next = withSection(text, section);
    if (next !== text && write) writeFileSync(new URL(section.file, ROOT), next);
    return next !== text;
  }).map((s) => s.file);
  if (write) console.log(stale.length ? `rewrote ${stale.join(', ')}` : 'all up to date');
  else if (stale.length) {
    console.error(`out of date: ${stale.join(', ')} (node scripts/provider-docs.ts --write)`);
    process.exitCode = 1;
  }
}
