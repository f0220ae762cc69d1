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
  VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3.1,vertex:veo-3.1-generate-001',
  VIDEO_ROUTE_IMAGE: 'fal:fal-ai/veo3.1/image-to-video',
  FAL_KEY: 'fal-key',
  FAL_USER_ID: 'user_ours',
  GOOGLE_CLOUD_PROJECT: 'my-project',
  GOOGLE_APPLICATION_CREDENTIALS: '/secrets/vertex.json',
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

  it("reads each mode's route as an ordered provider:model list", () => {
    const config = loadConfig(PRODUCTION_SETTINGS);
    expect(config.video.routes).toEqual({
      text: [
        { provider: 'fal', model: 'fal-ai/veo3.1' },
        { provider: 'vertex', model: 'veo-3.1-generate-001' },
      ],
      image: [{ provider: 'fal', model: 'fal-ai/veo3.1/image-to-video' }],
    });
    // Production sends providers' webhooks to the public origin.
    expect(config.video.webhookBase).toBe('https://veo3studio.app');
  });

  it('defaults both routes to the local renderer, polling only', () => {
    const config = loadConfig({});
    expect(config.video.routes.text).toEqual([{ provider: 'local', model: 'local' }]);
    expect(config.video.routes.image).toEqual([{ provider: 'local', model: 'local' }]);
    expect(config.video.webhookBase).toBeNull();
  });

  it.each([
    [{ VIDEO_ROUTE_TEXT: 'sora:sora-2' }, /VIDEO_ROUTE_TEXT: unknown provider "sora"/],
    [
      { VIDEO_ROUTE_IMAGE: 'fal-ai/veo3.1' },
      /VIDEO_ROUTE_IMAGE: "fal-ai\/veo3.1" is not provider:model-id/,
    ],
    [{ VIDEO_ROUTE_TEXT: 'fal:' }, /VIDEO_ROUTE_TEXT: "fal:" is not provider:model-id/],
    [{ VIDEO_ROUTE_TEXT: ' , ' }, /VIDEO_ROUTE_TEXT is empty/],
    [{ VIDEO_ROUTE_TEXT: 'fal:veo3.1', FAL_KEY: 'k' }, /"veo3.1" is not a fal model id/],
    [
      { VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3.1' },
      /VIDEO_ROUTE_TEXT routes to fal, which needs FAL_KEY/,
    ],
    [
      // Webhooks on (VIDEO_WEBHOOK_BASE): fal deliveries are checked against our own account.
      {
        VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3.1',
        FAL_KEY: 'k',
        VIDEO_WEBHOOK_BASE: 'https://x.example',
      },
      /VIDEO_ROUTE_TEXT routes to fal with webhooks on \(https:\/\/x.example\), which needs FAL_USER_ID/,
    ],
    [{ VIDEO_ROUTE_IMAGE: 'replicate:google/veo-3.1' }, /needs REPLICATE_API_TOKEN/],
    [
      { VIDEO_ROUTE_TEXT: 'vertex:veo-3.1-generate-001', GOOGLE_CLOUD_PROJECT: 'p' },
      /needs GOOGLE_APPLICATION_CREDENTIALS/,
    ],
    [{ VIDEO_ROUTE_TEXT: 'gemini:gemini-omni-1.2-flash' }, /needs GEMINI_API_KEY/],
    [
      { VIDEO_ROUTE_TEXT: 'local:local,local:local' },
      /VIDEO_ROUTE_TEXT: "local:local" is listed twice/,
    ],
  ])('refuses to start on a bad route (%o), naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('switches video alone: a real route beside local sign-in and local checkout (staging)', () => {
    const config = loadConfig({
      VIDEO_ROUTE_TEXT: 'replicate:google/veo-3.1',
      REPLICATE_API_TOKEN: 'r8_x',
    });
    expect(config).toMatchObject({ localMode: true, stripe: null, google: { clientId: null } });
    expect(config.video.routes.text).toEqual([{ provider: 'replicate', model: 'google/veo-3.1' }]);
    expect(config.video.routes.image).toEqual([{ provider: 'local', model: 'local' }]);
  });

  it('refuses the local renderer in production, naming the route variable', () => {
    const env = { ...PRODUCTION_SETTINGS, VIDEO_ROUTE_IMAGE: 'local:local' };
    expect(() => loadConfig(env)).toThrow(/VIDEO_ROUTE_IMAGE \(the ffmpeg renderer/);
  });

  it('needs both Stripe secrets once one is set, and names the missing one', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/Set STRIPE_SECRET_KEY/);
  });
});
