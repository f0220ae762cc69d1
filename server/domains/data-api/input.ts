/** Checks a JSON value against a TypeBox schema and turns the first problem into one sentence. */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { badRequest } from '../../core/errors.ts';
import { type ApiText, msg } from '../../core/api-messages.ts';

export function checkInput(schema: TSchema, value: unknown, what: ApiText): void {
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
      msg('data.input.one_of', { field, what, allowed: allowed.join(', ') }),
      'VALIDATION_ERROR',
    );
  }
  if (first.keyword === 'required') {
    const missing = (first.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    throw badRequest(
      msg('data.input.required', { field: [field, missing[0]].filter(Boolean).join('.'), what }),
      'VALIDATION_ERROR',
    );
  }
  // The validator's detail ("must be string") is TypeBox's English in every language.
  const detail = first.message;
  throw badRequest(
    field
      ? msg('data.input.invalid_field', { field, what, detail })
      : msg('data.input.invalid', { what, detail }),
    'VALIDATION_ERROR',
  );
}
