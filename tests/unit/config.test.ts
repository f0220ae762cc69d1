import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

/** Every setting production needs, with real-looking values. */
const PRODUCTION_SETTINGS: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db/app',
  GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
  PUBLIC_SITE_URL: 'https://veo3studio.app',
  SMTP_URL: 'smtps://u:p@smtp.example.com',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  VIDEO_PROVIDER: 'veo',
  GEMINI_API_KEY: 'key',
  VEO_MODEL_TEXT: 'veo-3.0-generate-001',
  VEO_MODEL_IMAGE: 'veo-3.0-fast-generate-001',
};

describe('loadConfig', () => {
  it('defaults to local mode on port 4321 with data in ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      localMode: true,
      isProduction: false,
      port: 4321,
      databaseUrl: null,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.publicSiteUrl).toBe('http://localhost:4321');
  });

  it('reads BLOG_EDITORS as lower-cased emails', () => {
    const config = loadConfig({ BLOG_EDITORS: ' Ann@Example.com,,bob@example.com ' });
    expect([...config.blogEditors]).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('names the variable when a value is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it.each(['DATABASE_URL', 'GOOGLE_CLIENT_ID', 'PUBLIC_SITE_URL', 'SMTP_URL', 'STRIPE_SECRET_KEY'])(
    'refuses production without %s and names it',
    (missing) => {
      const env = { ...PRODUCTION_SETTINGS };
      delete env[missing];
      if (missing === 'STRIPE_SECRET_KEY') delete env.STRIPE_WEBHOOK_SECRET;
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(missing));
    },
  );

  it('starts production when every production setting is present', () => {
    const config = loadConfig({
      ...PRODUCTION_SETTINGS,
      PUBLIC_SITE_URL: 'https://veo3studio.app/',
    });
    expect(config).toMatchObject({ localMode: false, publicSiteUrl: 'https://veo3studio.app' });
  });

  it('names the missing Veo setting when VIDEO_PROVIDER=veo', () => {
    expect(() =>
      loadConfig({ VIDEO_PROVIDER: 'veo', GEMINI_API_KEY: 'k', VEO_MODEL_TEXT: 'm' }),
    ).toThrow(/VEO_MODEL_IMAGE/);
  });

  it('needs both Stripe secrets once one is set, and names the missing one', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/Set STRIPE_SECRET_KEY/);
  });
});
