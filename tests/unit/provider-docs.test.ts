/**
 * A provider's variables are declared once, in its descriptor (server/domains/video/providers/
 * <name>/index.ts); the lists people read are written from PROVIDERS by
 * scripts/provider-docs.ts: README's "Video provider variables" table, the providers' section
 * of .env.example, and deploy/'s .env.example and compose.yaml. A file that misses a variable a
 * descriptor declares, or lists one none declares, differs from what the script writes and
 * fails here; so does a declared variable named anywhere else in those files.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../server/domains/video/providers/index.ts';
import { readRepoFile, SECTIONS, sectionText, withSection } from '../../scripts/provider-docs.ts';
import { PUBLIC_ONLY } from '../../server/core/outbound.ts';
import { DEFAULT_RESULT_MAX_BYTES } from '../../server/domains/video/providers/http.ts';

const declaredNames = PROVIDERS.flatMap((p) => p.env.map((v) => v.name));

describe('provider variables', () => {
  it('are declared once each, by one provider', () => {
    expect(declaredNames.filter((name, i) => declaredNames.indexOf(name) !== i)).toEqual([]);
  });

  it.each(SECTIONS)('$file lists them as PROVIDERS declares them', (section) => {
    const text = readRepoFile(section.file);
    // On failure: node scripts/provider-docs.ts --write
    expect(text).toBe(withSection(text, section));
  });

  it.each(SECTIONS)('$file names no declared variable outside its section', (section) => {
    const text = readRepoFile(section.file);
    const outside = text.replace(sectionText(text, section), '');
    // A table row's variable in markdown (its prose and examples may name one); elsewhere a
    // value (`NAME=` in an env file, `NAME:` in compose).
    const pattern = (name: string) =>
      section.file.endsWith('.md') ? `^\\| \`${name}\`` : `^(#? ?${name}=| *${name}:)`;
    const named = declaredNames.filter((name) => new RegExp(pattern(name), 'm').test(outside));
    expect(named).toEqual([]);
  });

  it('the check sees a variable a file misses and one no descriptor declares', () => {
    const env = SECTIONS.find((section) => section.file === '.env.example')!;
    const text = readRepoFile(env.file);
    const missing = text.replace(/^FAL_KEY=\n/m, '');
    expect(missing).not.toBe(text);
    expect(withSection(missing, env)).not.toBe(missing);
    const extra = text.replace(/^FAL_KEY=\n/m, 'FAL_KEY=\nFAL_REGION=\n');
    expect(withSection(extra, env)).not.toBe(extra);
  });
});

describe('the descriptors', () => {
  it('put local last, and only local is local-only', () => {
    expect(PROVIDERS.at(-1)!.name).toBe('local');
    expect(PROVIDERS.filter((p) => p.localOnly).map((p) => p.name)).toEqual(['local']);
  });

  it('require only variables they declare, and are configured only with those set', () => {
    for (const p of PROVIDERS) {
      const own = p.env.map((v) => v.name);
      expect(
        p.requires.filter((name) => !own.includes(name)),
        p.name,
      ).toEqual([]);
      const defaults = Object.fromEntries(p.env.map((v) => [v.name, v.default]));
      // Defaults alone carry no credentials: nothing is called without the operator's say.
      expect(p.configured(p.settings(defaults)), p.name).toBe(false);
    }
  });

  it('declare the capabilities their adapters have: webhooks exactly where they verify them', async () => {
    for (const p of PROVIDERS) {
      const settings = p.settings(
        Object.fromEntries(
          p.env.map((v) => [v.name, p.requires.includes(v.name) ? 'x' : v.default]),
        ),
      );
      const adapter = await p.create(settings, {
        dataDir: '/nonexistent',
        outbound: PUBLIC_ONLY,
        maxResultBytes: DEFAULT_RESULT_MAX_BYTES,
      });
      expect(adapter.name, p.name).toBe(p.name);
      expect(adapter.verifyWebhook !== undefined, p.name).toBe(p.capabilities.webhooks);
    }
  });
});
