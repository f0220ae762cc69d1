/**
 * The envelopes every API answer comes in, as plain types for the site and the server alike.
 * shared/api/ holds the shape of each request and answer the site sends or reads; the server
 * validates them with TypeBox schemas in server/contracts/, each checked at compile time to
 * describe exactly the type here (`schemaFor` in server/contracts/common.ts).
 */

/** `{ success: true, data }`: a successful answer. */
export type Ok<T> = {
  success: true;
  data: T;
  message?: string;
};

/** Every API error: `{ success: false, message, code }`, with a message a person can act on. */
export type ErrorResponse = {
  success: false;
  message: string;
  code: string;
};

/** An answer that only says what happened. */
export type MessageResponse = {
  success: boolean;
  message: string;
};

/** What every keyset-paged list adds (issue 19): the next page's `cursor`, null on the last. */
export type KeysetPage = {
  next_cursor: string | null;
  has_more: boolean;
};
