/**
 * Shapes shared by every API answer, and the helpers the contracts build them with.
 *
 * The site never imports server/: the shape of each request and answer it sends or reads is a
 * plain type in shared/api/, and its schema here is wrapped in `schemaFor<ThatType>()`, so the
 * schema and the type cannot drift apart (tsc fails when they describe different values). Shapes
 * only the server reads (query strings, path parameters, health checks) are `Static<>` of their
 * schema.
 */
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from 'typebox';
import type * as api from '../../shared/api/common.ts';

/** `T` with every intersection of object types merged, at every depth. */
type Normal<T> = T extends object ? { [K in keyof T]: Normal<T[K]> } : T;
/** True when A and B describe the same values (not merely assignable one way). */
type Same<A, B> =
  (<T>() => T extends Normal<A> ? 1 : 2) extends <T>() => T extends Normal<B> ? 1 : 2
    ? true
    : false;

/**
 * `schemaFor<T>()(schema)` is `schema`, checked at compile time to validate exactly the values of
 * the shared type `T`: a field missing, extra, optional or typed otherwise on either side is a
 * type error naming both shapes.
 */
export const schemaFor =
  <T>() =>
  <S extends TSchema>(
    schema: S &
      (Same<Static<S>, T> extends true
        ? unknown
        : { 'schema does not match its shared type': { schema: Static<S>; shared: T } }),
  ): S =>
    schema;

/** `schema` or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a plain list of strings from shared/ (`['draft', 'published']` → 'draft' | 'published'). */
export const LiteralUnion = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((value) => Type.Literal(value))) as unknown as TUnion<{
    -readonly [K in keyof T]: TLiteral<T[K]>;
  }>;

/** Every API error: `{ success: false, message, code }`, with a message a person can act on. */
export const ErrorResponse = schemaFor<api.ErrorResponse>()(
  Type.Object({ success: Type.Literal(false), message: Type.String(), code: Type.String() }),
);
export type ErrorResponse = api.ErrorResponse;

/** `{ success: true, data }` envelope. */
export const Ok = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, message: Type.Optional(Type.String()) });

/** What every keyset-paged list adds (issue 19): the next page's `cursor`, null on the last. */
export const KeysetFields = {
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  has_more: Type.Boolean(),
};

export const MessageResponse = schemaFor<api.MessageResponse>()(
  Type.Object({ success: Type.Boolean(), message: Type.String() }),
);
export type MessageResponse = api.MessageResponse;

export const HealthResponse = Type.Object({
  success: Type.Boolean(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  version: Type.String(),
  uptimeSeconds: Type.Number(),
});
export type HealthResponse = Static<typeof HealthResponse>;

/** GET /api/health/live. */
export const LiveResponse = Type.Object({
  success: Type.Literal(true),
  status: Type.Literal('ok'),
  version: Type.String(),
  uptimeSeconds: Type.Number(),
});
export type LiveResponse = Static<typeof LiveResponse>;

/** GET /api/health/ready: 200 when ready, 503 when not or while shutting down. */
export const ReadyResponse = Type.Object({
  success: Type.Boolean(),
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready'), Type.Literal('draining')]),
  checks: Type.Array(
    Type.Object({
      name: Type.String(),
      ok: Type.Boolean(),
      critical: Type.Boolean(),
      detail: Type.String(),
    }),
  ),
  version: Type.String(),
  uptimeSeconds: Type.Number(),
});
export type ReadyResponse = Static<typeof ReadyResponse>;
