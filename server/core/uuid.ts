/**
 * Whether a text is a uuid (any case). Ids in URLs are checked with it before they reach a query:
 * another word in their place answers 404 like an unknown id, never a database error.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);
