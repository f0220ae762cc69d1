/** What one running Veo fake keeps: its jobs, their files, signed storage paths, scenarios. */
import type { VeoFake, VeoScenario } from './types.ts';

export interface Job {
  id: string;
  model: string;
  scenario: VeoScenario;
  polls: number;
  failures: { poll: number; download: number };
}

export interface VeoState {
  /** The fake as tests see it: its live settings (polls, flaky failures, retry-after) and log. */
  fake: VeoFake;
  /** The models submits may name; null accepts any. */
  knownModels: Set<string> | null;
  /** Operation name → its job. */
  jobs: Map<string, Job>;
  /** File id → the job that made it. */
  files: Map<string, Job>;
  /** Signed storage paths handed out by the file endpoint → nothing (presence is the grant). */
  signed: Set<string>;
  scenarios: {
    byPrompt: Map<string, VeoScenario>;
    byModel: Map<string, VeoScenario>;
    default: VeoScenario;
  };
  /** Failed submits so far per prompt, for the flaky scenarios. */
  submitFailures: Map<string, number>;
}

export const isFlaky = (s: VeoScenario) => s === 'flaky429' || s === 'flaky500';
