/**
 * Files stay small enough to read in one sitting (issue 15): no source file over 400 lines
 * outside tests, and no test fake over 600 (a fake grows one module per resource instead).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filesUnder, rel } from '../helpers/source-tree.ts';

const SOURCE = ['.ts', '.tsx', '.astro', '.css', '.mjs', '.js'];
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;
const over = (files: string[], limit: number) =>
  files.filter((file) => lines(file) > limit).map((file) => `${rel(file)}: ${lines(file)} lines`);

describe('file sizes', () => {
  it('keeps every source file outside tests at 400 lines or fewer', () => {
    const sources = ['server', 'site', 'shared', 'scripts'].flatMap((dir) =>
      filesUnder(dir, SOURCE),
    );
    expect(sources.length).toBeGreaterThan(100);
    expect(over(sources, 400)).toEqual([]);
  });

  it('keeps every test fake at 600 lines or fewer', () => {
    const fakes = filesUnder('tests/fakes', ['.ts']);
    expect(fakes.length).toBeGreaterThan(3);
    expect(over(fakes, 600)).toEqual([]);
  });
});
