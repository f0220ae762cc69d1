/** Checks a JSON value against a TypeBox schema and turns the first problem into one sentence. */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { badRequest } from '../../core/errors.ts';

export function checkInput(schema: TSchema, value: unknown, what: string): void {
  const errors = Value.Errors(schema, value);
  const first = errors[0];
  if (!first) return;
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (first.keyword === 'const') {
    // A union of literals (a status): name the values that would work.
    const allowed = errors
      .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
      .map((e) => String((e.params as { allowedValue?: unknown }).allowedValue));
    throw badRequest(
      `Invalid '${field}' in ${what}: use one of ${allowed.join(', ')}.`,
      'VALIDATION_ERROR',
    );
  }
  if (first.keyword === 'required') {
    const missing = (first.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    throw badRequest(
      `The field '${[field, missing[0]].filter(Boolean).join('.')}' is required in ${what}.`,
      'VALIDATION_ERROR',
    );
  }
  throw badRequest(
    field
      ? `Invalid '${field}' in ${what}: ${first.message}.`
      : `Invalid ${what}: ${first.message}.`,
    'VALIDATION_ERROR',
  );
}
