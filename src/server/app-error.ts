/** An error with an HTTP status; services throw these, the error handler answers with `{error}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields merged into the error body (e.g. the current product on a version conflict). */
    readonly extra?: Record<string, unknown>,
    /** Headers the answer carries (e.g. Retry-After on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = "Authentication required") => new AppError(401, message);
export const forbidden = (message = "You don't have permission to do this") => new AppError(403, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, extra);
export const tooManyRequests = (message = "Too many requests. Please try again later.", headers?: Record<string, string>) =>
  new AppError(429, message, undefined, headers);
export const serviceUnavailable = (message: string) => new AppError(503, message);
