/**
 * JSON answers kept as bytes (the blog's public reads, a /v1 video a client polls): serialized
 * once by the route's response schema and encoded once, then sent as those bytes on every answer,
 * which skips both serializing and encoding the string again.
 */
import type { FastifyReply } from 'fastify';

/** `payload` as the route's response schema serializes it, encoded as UTF-8. */
export const jsonBytes = (reply: FastifyReply, payload: unknown): Buffer =>
  Buffer.from(reply.serialize(payload) as string);

/** Answers with bytes `jsonBytes` made. */
export const sendJsonBytes = (reply: FastifyReply, body: Buffer): FastifyReply =>
  reply.type('application/json; charset=utf-8').send(body);
