/** Figures the bench prints (with their goals) and the median its repeated runs report. */
import { readFile } from 'node:fs/promises';

/** One measured figure; `goal` and `met` when the spec or an issue sets a target. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  goal?: string;
  met?: boolean;
}

/** The middle value (the upper middle of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/**
 * CPU time a process has used so far, user and system, in microseconds (Linux: /proc, in 10 ms
 * ticks). Read around a load run, it gives the server's CPU per request: steadier than its
 * req/s, which moves with whatever else the machine runs.
 */
export async function processCpuMicros(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
