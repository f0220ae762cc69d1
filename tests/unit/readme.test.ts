/**
 * README cannot drift: its Configuration table names exactly the variables server/config.ts
 * reads, and it links nothing outside the repository (a clone has only the repository).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../server/config.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The `## Configuration` section, up to the next `## ` heading. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Variable names in the first column of every table row of a section. */
function tableVariables(markdown: string): string[] {
  return [...markdown.matchAll(/^\|([^|\n]*)\|/gm)].flatMap((row) =>
    [...row[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((name) => name[1]!),
  );
}

describe('README', () => {
  const listed = tableVariables(section(readme, 'Configuration'));

  it('lists every variable server/config.ts reads', () => {
    expect(ENV_VARIABLES.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('lists no variable server/config.ts does not read, and none twice', () => {
    expect(listed.filter((name) => !ENV_VARIABLES.includes(name))).toEqual([]);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
  });

  it('links no path outside the repository', () => {
    const outside = [...readme.matchAll(/(?:\]\(|`)(\.\.\/[^)`\s]*)/g)].map((m) => m[1]);
    expect(outside).toEqual([]);
  });

  it('parses the first column of a table only', () => {
    expect(
      tableVariables('| `A_B`, `C` | `D` | e `F` |\n|---|---|---|\n| `G` | x | y |\ntext `H`'),
    ).toEqual(['A_B', 'C', 'G']);
  });
});
