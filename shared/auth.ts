/** Sign-in field limits the login form and the server both apply (spec 4 Auth, 5 validation). */

/** RFC 5321's longest address. */
export const EMAIL_MAX_LENGTH = 254;
/** A person's name as they type it at sign-up or local sign-in. */
export const NAME_MAX_LENGTH = 80;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
