/** Figures the bench prints (with their goals) and the median its repeated runs report. */

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
