/** The Gemini fake's public shapes: the fake itself and its request log. */
import type { FakeJob, FakeRequestLog, VideoProviderFake } from '../video/control.ts';
import type { FakeVideoShape } from '../video/shape.ts';

export interface GeminiRequestLog extends FakeRequestLog {
  /** Which server answered: the API, or the storage host its file route redirects to. */
  server: 'api' | 'storage';
  /** The `x-goog-api-key` header as received, or null. */
  apiKey: string | null;
  /** The parsed JSON body of a POST (undefined when absent or not JSON). */
  body?: unknown;
}

export interface GeminiFake extends VideoProviderFake {
  readonly provider: 'gemini';
  readonly apiKey: string;
  /** The storage server the file route redirects to (another origin). */
  readonly storageUrl: string;
  readonly requests: GeminiRequestLog[];
  /** The first frames submits sent, decoded, by interaction id (to compare bytes). */
  readonly images: Map<string, Buffer>;
  /**
   * Milliseconds the API holds each create answer after the interaction exists (default 0): a
   * client that times out meanwhile has started a job it never heard of.
   */
  submitDelayMs: number;
}

/** What a fake interaction is, beside what FakeJob shows. */
export interface Job extends FakeJob {
  outcome: 'success' | 'policy' | 'fail' | 'hang';
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled';
  delivery: 'inline' | 'uri';
  created: string;
  updated: string;
  /** The video the interaction makes, as its response_format asked. */
  shape: FakeVideoShape;
  /** How many images the request sent (a first frame, or reference images). */
  imageCount: number;
  /** The file id of the finished video, once there is one. */
  fileId?: string;
}
