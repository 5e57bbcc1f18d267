/**
 * Request body limits: a body over its route's limit is refused with 413 before it is read.
 * The app's default is small; routes that take more say so (`bodyLimit` in their options).
 */

/** Anonymous routes (sign-in, sign-out): a username and a password fit many times over. */
export const ANONYMOUS_BODY_LIMIT_BYTES = 8 * 1024;
/** Every other API body (products, users). */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** Product import: 50,000 rows fit comfortably. */
export const IMPORT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
