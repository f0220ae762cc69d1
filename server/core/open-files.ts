/**
 * Open-file limits. Every connection holds a file descriptor, as do database connections, files
 * being served and the site build; when they run out the whole process fails (finding 5 of issue
 * 16: 20,000 slow connections took the service down for 40 s). Node raises its own soft limit to
 * the hard one as it starts (so `prlimit` has nothing left to raise); what the system allows is
 * the hard limit (systemd LimitNOFILE, docker --ulimit nofile, docs/deployment.md). The
 * connection cap is sized to leave descriptors for everything else.
 */
import { readFileSync } from 'node:fs';

export interface OpenFileLimits {
  soft: number;
  hard: number;
}

/** The "Max open files" row of /proc/<pid>/limits (Linux); null where there is none. */
export function openFileLimits(pid: number | 'self' = 'self'): OpenFileLimits | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/limits`, 'utf8');
  } catch {
    return null;
  }
  const row = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
  if (!row) return null;
  const value = (s: string) => (s === 'unlimited' ? Infinity : Number(s));
  return { soft: value(row[1]!), hard: value(row[2]!) };
}

/**
 * Connections allowed for a soft open-file limit: a quarter of it (64 to 1,024 descriptors) is
 * kept for the database pool, files being served, logs and the site build. Past 20,000 idle
 * connections memory, not descriptors, runs out first, and a reverse proxy should be in front.
 */
export function connectionCapFor(softLimit: number): number {
  if (!Number.isFinite(softLimit)) return MAX_AUTOMATIC_CAP;
  const reserve = Math.min(1024, Math.max(64, Math.floor(softLimit / 4)));
  return Math.max(16, Math.min(MAX_AUTOMATIC_CAP, softLimit - reserve));
}

const MAX_AUTOMATIC_CAP = 20_000;
