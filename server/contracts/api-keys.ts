/**
 * Schemas of the session's key routes (/api/account/api-keys) and the admin's view of a user's
 * keys (issue 36, item 1); the shapes are shared/public-api.ts's.
 */
import { Type, type Static } from 'typebox';
import {
  API_SCOPES,
  MAX_API_KEY_NAME,
  type ApiKeyInfo as ApiKeyInfoType,
  type ApiKeyList as ApiKeyListType,
  type CreatedApiKey as CreatedApiKeyType,
} from '../../shared/public-api.ts';
import { LiteralUnion, Nullable, Ok, schemaFor } from './common.ts';

const Scope = LiteralUnion(API_SCOPES);

const keyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'vs_live_ and the next 6 characters of the key' }),
  scopes: Type.Array(Scope),
  created_at: Type.String(),
  last_used_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
};

const ApiKeyInfo = schemaFor<ApiKeyInfoType>()(Type.Object(keyFields));

export const ApiKeyListResponse = Ok(
  schemaFor<ApiKeyListType>()(
    Type.Object({
      items: Type.Array(ApiKeyInfo),
      max: Type.Integer({ description: 'Active keys a user may hold' }),
    }),
  ),
);

export const CreatedApiKeyResponse = Ok(
  schemaFor<CreatedApiKeyType>()(
    Type.Object({
      ...keyFields,
      key: Type.String({ description: 'The full key: shown this once, never again' }),
    }),
  ),
);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_API_KEY_NAME }),
    scopes: Type.Array(Scope, { minItems: 1, maxItems: API_SCOPES.length, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const ApiKeyIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type ApiKeyIdParams = Static<typeof ApiKeyIdParams>;
