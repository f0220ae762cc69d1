/**
 * How hard each run pushes. `short` runs inside `npm test` (about a minute and a half on two
 * cores); `long` is `npm run test:resilience` and the bench.
 */
export interface Profile {
  name: 'short' | 'long';
  /** Simulated users of the load and crash scenarios. */
  users: number;
  /** How long they keep acting. */
  durationMs: number;
  /** Real renders the users may start (the rest of their generates fail on purpose). */
  renders: number;
  /** SIGKILLs spread over the crash scenario's load. */
  crashes: number;
  /** Pause between two actions of one user. */
  thinkMs: [number, number];
  /** Longest wait for the queue to drain after the load. */
  drainTimeoutMs: number;
  twoInstances: {
    /** Users spread over the two APIs: each buys through Stripe, then acts for `loadMs`. */
    users: number;
    loadMs: number;
    /** Videos each user submits, alternating between the two APIs. */
    tasksPerUser: number;
    renders: number;
    /** Copies of each webhook event sent to each instance at once. */
    webhookCopies: number;
  };
  /** Issue 36: developers' programs on /v1, each with its own key, retrying with one Idempotency-Key. */
  apiClients: { clients: number; videosPerClient: number; renders: number };
}

export const PROFILES: Record<Profile['name'], Profile> = {
  short: {
    name: 'short',
    users: 20,
    durationMs: 10_000,
    renders: 2,
    crashes: 1,
    thinkMs: [20, 200],
    drainTimeoutMs: 90_000,
    twoInstances: { users: 8, loadMs: 5000, tasksPerUser: 2, renders: 2, webhookCopies: 2 },
    apiClients: { clients: 50, videosPerClient: 3, renders: 1 },
  },
  long: {
    name: 'long',
    users: 200,
    durationMs: 60_000,
    renders: 16,
    crashes: 2,
    thinkMs: [50, 400],
    drainTimeoutMs: 240_000,
    twoInstances: { users: 40, loadMs: 20_000, tasksPerUser: 3, renders: 8, webhookCopies: 3 },
    apiClients: { clients: 50, videosPerClient: 10, renders: 4 },
  },
};

export function profileFromEnv(value = process.env.RESILIENCE_PROFILE): Profile {
  const name = value || 'long';
  if (name !== 'short' && name !== 'long') {
    throw new Error(`RESILIENCE_PROFILE must be 'short' or 'long', not '${name}'.`);
  }
  return PROFILES[name];
}
