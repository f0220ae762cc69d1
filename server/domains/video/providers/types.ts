/**
 * What the video worker needs from a video generation provider (Gemini API Veo, or a test double).
 * Kept small and stateless: a worker can crash between submit and done, so everything a later
 * call needs travels in the job id the worker stores on the task.
 */

export interface VideoJobInput {
  prompt: string;
  mode: 'text' | 'image';
  /** Our model id (e.g. `veo3`); the provider maps it to its own, configured model id. */
  model: string;
  /** The first frame, required in image mode. */
  image?: { data: Buffer; mimeType: string };
}

export type VideoJobState =
  | { state: 'running'; progress?: number }
  | { state: 'succeeded' }
  | { state: 'failed'; reason: string };

export interface VideoProvider {
  readonly name: string;
  /** Starts a job; returns the provider's job id (Veo: the operation name) to store on the task. */
  submit(input: VideoJobInput, signal?: AbortSignal): Promise<string>;
  /** One status check of a job (the worker polls on its own schedule). */
  poll(jobId: string, signal?: AbortSignal): Promise<VideoJobState>;
  /** Copies the finished video into our media store at `destPath` (an .mp4 path). */
  download(jobId: string, destPath: string, signal?: AbortSignal): Promise<void>;
}
