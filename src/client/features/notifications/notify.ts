import { type ExternalToast, toast } from "sonner";
import { TOAST_DURATION_MS } from "../../../contract/rules";

export type ToastType = keyof typeof TOAST_DURATION_MS;

export const UNKNOWN_ERROR_MESSAGE = "An unknown error occurred";
/** The fallback for an error that is neither text nor an Error. */
export const NON_TEXT_ERROR_MESSAGE = "Error occurred";

/** A duration of 0 or less means the toast stays until closed. */
export function toastDuration(ms: number): number {
  return ms <= 0 ? Number.POSITIVE_INFINITY : ms;
}

/** Text of anything thrown or passed as an error; empty -> 'An unknown error occurred', not text -> 'Error occurred'. */
export function errorText(error: unknown): string {
  if (error === null || error === undefined) return UNKNOWN_ERROR_MESSAGE;
  if (typeof error === "string") return error.trim() ? error : UNKNOWN_ERROR_MESSAGE;
  if (error instanceof Error) return error.message.trim() ? error.message : UNKNOWN_ERROR_MESSAGE;
  return NON_TEXT_ERROR_MESSAGE;
}

function show(type: ToastType, message: string, options?: ExternalToast) {
  return toast[type](message, { duration: toastDuration(TOAST_DURATION_MS[type]), ...options });
}

/** Toasts with the spec's durations: error 5 s, success 3 s, warning 4 s, info 3 s. */
export const notify = {
  success: (message: string, options?: ExternalToast) => show("success", message, options),
  warning: (message: string, options?: ExternalToast) => show("warning", message, options),
  info: (message: string, options?: ExternalToast) => show("info", message, options),
  /** Accepts an Error or text; an empty one reads 'An unknown error occurred'. */
  error: (error: unknown, options?: ExternalToast) => show("error", errorText(error), options),
  dismiss: (id?: string | number) => toast.dismiss(id),
};

/** The spec's failure message, then the server's reason when there is one: 'Failed to create user: Username already exists'. */
export function failureText(message: string, error: unknown): string {
  const reason = error instanceof Error ? error.message.trim() : "";
  return reason && reason !== message ? `${message}: ${reason}` : message;
}
