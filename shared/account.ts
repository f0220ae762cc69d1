/**
 * Closing an account (issue 34): how recent a sign-in must be to close an account that has no
 * password (Google, local sign-in). The server enforces it; the /account page says it.
 */
export const FRESH_SIGN_IN_MINUTES = 5;
