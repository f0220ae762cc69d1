/** The Veo fake's public shapes: the fake itself, its scenarios and its request log. */

export type VeoScenario =
  /** Running for `pollsUntilDone - 1` polls, then a video. */
  | 'success'
  /** Done with no samples: the safety filter dropped the video (`raiReason`). */
  | 'rai'
  /** Done with `error: { code, message }` (`operationErrorMessage`). */
  | 'error'
  /** The first `flakyFailures` submits, polls and downloads of a job answer 429, then as 'success'. */
  | 'flaky429'
  /** Same with 500. */
  | 'flaky500'
  /** Generation succeeds but the file endpoint answers 404 (an expired or deleted file). */
  | 'downloadFails';

export interface VeoFakeRequest {
  server: 'api' | 'storage';
  method: string;
  /** Path and query (the key travels in a header, never the query). */
  path: string;
  /** The `x-goog-api-key` header as received, or null. */
  apiKey: string | null;
  /** The parsed JSON body of a POST (undefined when absent or not JSON). */
  body?: unknown;
  /** The status we answered. */
  status: number;
}

export interface VeoFake {
  /** The API's base URL: give it to the adapter as `apiBase`. */
  url: string;
  /** The storage server the file endpoint redirects to (another origin). */
  storageUrl: string;
  apiKey: string;
  /** Every request to either server, oldest first. */
  requests: VeoFakeRequest[];
  /** The exact bytes the storage server serves. */
  video: Buffer;
  /** True when `video` is an MP4 made by ffmpeg, false when it is a placeholder. */
  videoIsReal: boolean;
  /** The poll (1-based) on which an operation reports done. */
  pollsUntilDone: number;
  /** How many times each step of a flaky job fails before it works. */
  flakyFailures: number;
  /** When set, 429s carry `Retry-After` and a RetryInfo detail with this many seconds. */
  retryAfterSeconds: number | null;
  readonly raiReason: string;
  readonly operationErrorMessage: string;
  /**
   * Sets the scenario for new jobs: of one prompt, of one model, or (no target) the default.
   * A prompt's scenario wins over its model's, which wins over the default.
   */
  setScenario(scenario: VeoScenario, target?: { model?: string; prompt?: string }): void;
  close(): Promise<void>;
}
