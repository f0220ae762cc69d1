/** Opaque secrets: random 32-byte tokens handed to clients, stored only as SHA-256 hashes. */
import { hash, randomBytes } from 'node:crypto';

/** A new bearer or reset token (base64url, 43 characters). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** The stored form of a token. A fast hash is enough: tokens carry 256 bits of entropy. */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');
