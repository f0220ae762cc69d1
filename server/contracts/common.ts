/**
 * Shapes shared by every API answer, and the helpers the contracts build them with. The site
 * imports only types from server/contracts; its values are in shared/.
 */
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from 'typebox';

/** `schema` or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a plain list of strings from shared/ (`['draft', 'published']` → 'draft' | 'published'). */
export const LiteralUnion = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((value) => Type.Literal(value))) as unknown as TUnion<{
    -readonly [K in keyof T]: TLiteral<T[K]>;
  }>;

/** Every API error: `{ success: false, message, code }`, with a message a person can act on. */
export const ErrorResponse = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  code: Type.String(),
});
export type ErrorResponse = Static<typeof ErrorResponse>;

/** `{ success: true, data }` envelope. */
export const Ok = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, message: Type.Optional(Type.String()) });

/** What every keyset-paged list adds (issue 19): the next page's `cursor`, null on the last. */
export const KeysetFields = {
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  has_more: Type.Boolean(),
};

export const MessageResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
});
export type MessageResponse = Static<typeof MessageResponse>;

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
