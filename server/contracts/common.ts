/** Shapes shared by every API answer. Pure TypeBox: imported by the server and by site/ islands. */
import { Type, type Static, type TSchema } from 'typebox';

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
