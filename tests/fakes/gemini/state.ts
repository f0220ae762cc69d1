/** What one running Gemini fake keeps: its jobs, their files, signed storage paths, failures to come. */
import type { SubmitFailure } from '../video/control.ts';
import type { GeminiFake, Job } from './types.ts';

export interface GeminiState {
  /** The fake as tests see it: its live settings and logs. */
  fake: GeminiFake;
  /** Interaction id → its job. */
  jobs: Map<string, Job>;
  /** File id → the job that made it. */
  files: Map<string, Job>;
  /** Signed storage paths handed out by the file route (presence is the grant). */
  signed: Set<string>;
  /** Answers for the next submits, oldest first. */
  submitFailures: SubmitFailure[];
  /** Pending delayed answers, cleared on close. */
  timers: Set<NodeJS.Timeout>;
}
