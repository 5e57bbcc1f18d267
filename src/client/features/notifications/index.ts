export { errorText, failureText, NON_TEXT_ERROR_MESSAGE, notify, type ToastType, toastDuration, UNKNOWN_ERROR_MESSAGE } from "./notify";
export { LIVE_TOASTER_ID, Toasters } from "./toasters";
