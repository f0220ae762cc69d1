/**
 * Request validation with two ajv instances (issue 16, finding 11). JSON bodies are taken as
 * sent: `amount: true` or `"50"` is refused, never read as 1 or 50, and `"x"` is no list. The
 * query string, path parameters and headers are text by nature, so they are still read as the
 * numbers, booleans and lists their schemas ask for. Both instances come from Fastify's own
 * compiler (@fastify/ajv-compiler) with the same shared schemas (`addSchema`) and the same `ajv`
 * server options (plugins, formats, keywords); only `coerceTypes` differs. Installed as
 * `schemaController.compilersFactory.buildValidator` (Fastify's Server reference, "schemaController").
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

/** The server's `ajv` option as this module reads it (JSON Schema mode; JTD is not used). */
interface AjvServerOptions {
  customOptions?: Record<string, unknown>;
  plugins?: unknown[];
  onCreate?: unknown;
}
type BuildValidator = NonNullable<
  NonNullable<
    NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
  >['buildValidator']
>;

/** One route part's schema, as Fastify hands it to a validator compiler. */
interface RoutePart {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
}
type CompilePart = (part: RoutePart) => unknown;
type CompilerPool = (externalSchemas: unknown, options: AjvServerOptions) => CompilePart;

/** The parts that arrive as text and may be coerced; everything else (the body) is not. */
const TEXT_PARTS = new Set(['querystring', 'params', 'headers']);

/** Fastify's `buildValidator`: a coercing compiler for text parts, a strict one for bodies. */
export function partAwareValidator(): BuildValidator {
  const pool = AjvCompiler() as unknown as CompilerPool;
  const build = (externalSchemas: unknown, options: AjvServerOptions | undefined) => {
    const withCoercion = (coerceTypes: 'array' | false): AjvServerOptions => ({
      ...options,
      customOptions: { ...options?.customOptions, coerceTypes },
    });
    const text = pool(externalSchemas, withCoercion('array'));
    const body = pool(externalSchemas, withCoercion(false));
    return (part: RoutePart) => (TEXT_PARTS.has(part.httpPart ?? '') ? text : body)(part);
  };
  return build as unknown as BuildValidator;
}
