/**
 * What buildApp can be given instead of building it from config: the outside services (database,
 * Google, mail, Stripe, the sample renderer) and the knobs tests turn.
 */
import type { RouteOptions } from 'fastify';
import type { Database } from './core/db.ts';
import type { Mailer } from './core/mailer.ts';
import type { MediaStore } from './core/media-store/types.ts';
import type { GoogleVerifier } from './domains/accounts/service.ts';
import type { StripeProvider } from './domains/billing/providers/stripe.ts';
import type { SampleRenderer } from './domains/site-build/samples.ts';

export interface AppDeps {
  database?: Database;
  google?: GoogleVerifier;
  mailer?: Mailer;
  /** Auth routes allowed per minute per client address. */
  authRateLimit?: number;
  /** A Stripe adapter built by the test (pointing at the fake in tests/fakes/stripe/). */
  stripe?: StripeProvider;
  /** Debounce between a public content change and its rebuild. */
  publishDebounceMs?: number;
  /** Writes the static site into a directory instead of `astro build` (tests: instant releases). */
  siteRenderer?: (outDir: string) => Promise<void>;
  /** SITE_PUBLISH=s3: how often the bucket's live pointer is read besides notifications (30 s). */
  releasePollMs?: number;
  /** false: no hourly scheduled grants (tests run them by hand). */
  scheduler?: boolean;
  /** Where logs go (default stdout); tests capture them here. */
  logStream?: NodeJS.WritableStream;
  /** The admin sign-in's clock (tests move it past a lockout). */
  now?: () => Date;
  /** Sees every route as it is registered (tests build their route tables from it). */
  onRoute?: (route: RouteOptions) => void;
  /** The media store (default: from config); instances in one test may share one. */
  mediaStore?: MediaStore;
  /** Renders the site's sample clips (default: the local ffmpeg renderer). */
  sampleRenderer?: SampleRenderer;
}
