/**
 * Vitest's file order: files that start processes, render with ffmpeg or build the site take the
 * longest, so they start first, and the two workers do not end with one of them alone on a slow
 * file. Without cached durations (a fresh clone, CI) Vitest would order by file size, which put
 * them last. Within each group Vitest's own order stays (cached durations, else size).
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW =
  /\bspawn\(|\brunScript\(|\bstartServer\(|siteBuilder!?\.build\(|\bensureSampleClips\(|renderLocalVideo\(/;

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = new Set(sorted.filter((file) => SLOW.test(readFileSync(file.moduleId, 'utf8'))));
    return [
      ...sorted.filter((file) => slow.has(file)),
      ...sorted.filter((file) => !slow.has(file)),
    ];
  }
}
