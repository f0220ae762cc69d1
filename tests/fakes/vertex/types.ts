/** The Vertex AI fake's public face and its shared state. */
import type { KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type {
  FakeJob,
  FakeRequestLog,
  SubmitFailure,
  VideoProviderFake,
} from '../video/control.ts';
import type { FakeVideoShape } from '../video/shape.ts';

export interface VertexFakeRequest extends FakeRequestLog {
  /** Which of the fake's origins got it: the Vertex API, the OAuth token endpoint, Cloud
   * Storage, or `elsewhere` (a host storage redirects to, which must never see the token). */
  server: 'api' | 'token' | 'storage' | 'elsewhere';
  /** The Authorization header as received, or null. */
  authorization: string | null;
  /** The parsed JSON body of an API POST. */
  body?: unknown;
}

export interface VertexFake extends VideoProviderFake {
  readonly provider: 'vertex';
  readonly requests: VertexFakeRequest[];
  readonly project: string;
  readonly location: string;
  /** Cloud Storage JSON API base (VERTEX_STORAGE_URL). */
  readonly storageUrl: string;
  /** The OAuth token endpoint the key file's `token_uri` names. */
  readonly tokenUrl: string;
  /** A third origin; storage redirects media there when `redirectMedia` is on. */
  readonly elsewhereUrl: string;
  /** The service-account key file the fake wrote (GOOGLE_APPLICATION_CREDENTIALS). */
  readonly keyFile: string;
  readonly clientEmail: string;
  /** Access tokens the token endpoint issued, oldest first. */
  readonly issuedTokens: string[];
  /** Results as `gs://` objects rather than inline base64 (also whenever storageUri is sent). */
  gcs: boolean;
  /** `[policy]` is refused at submit (400 INVALID_ARGUMENT) rather than filtered in the result. */
  policyOnSubmit: boolean;
  /** Storage answers media requests with a 302 to `elsewhereUrl`. */
  redirectMedia: boolean;
  /** The next `count` submits create their job but are never answered (a lost answer). */
  stallSubmits(count: number): void;
}

export interface VertexFakeOptions {
  gcs?: boolean;
  pollsUntilDone?: number;
  project?: string;
  location?: string;
}

export type Outcome = 'success' | 'policy' | 'fail' | 'hang';

export interface Job {
  fake: FakeJob;
  outcome: Outcome;
  /** `parameters.storageUri` as sent. */
  storageUri?: string;
  /** The operation's id (last path segment). */
  id: string;
  /** The video the operation makes, as its body asked. */
  shape: FakeVideoShape;
}

export interface VertexState {
  fake: VertexFake;
  publicKey: KeyObject;
  tokens: Set<string>;
  jobs: Map<string, Job>;
  /** `bucket/object` → the job whose video it is. */
  objects: Map<string, Job>;
  failures: Array<{ left: number; failure: SubmitFailure }>;
  stalls: number;
  /** Stalled answers, ended on close. */
  stalled: ServerResponse[];
}

export type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;
