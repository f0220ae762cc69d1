/** Readers for providers' JSON answers: a wrong shape reads as absent, never as a throw. */

export type Json = Record<string, unknown>;

export const objectOr = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;

export const stringOr = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const arrayOr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
