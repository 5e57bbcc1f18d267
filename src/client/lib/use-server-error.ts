import { useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";

/**
 * A dialog form's error from the server, and the spec's rule that form errors clear as soon as
 * the user edits a field: give `clearErrors` to the form's onChange.
 */
// biome-ignore lint/suspicious/noExplicitAny: any context and output type of the form will do
export function useServerError<T extends FieldValues>(form: UseFormReturn<T, any, any>) {
  const [serverError, setServerError] = useState<string | null>(null);
  const clearErrors = () => {
    if (Object.keys(form.formState.errors).length > 0) form.clearErrors();
    if (serverError) setServerError(null);
  };
  return { serverError, setServerError, clearErrors };
}
