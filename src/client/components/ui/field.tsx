import {
  cloneElement,
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
  useId,
} from "react";
import { cn } from "../../lib/cn";

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor
  return <label className={cn("text-sm font-medium text-gray-800 dark:text-gray-100", className)} {...props} />;
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export const inputClassName = cn(
  "block w-full rounded-lg border bg-white px-3 py-2 text-base text-gray-900 placeholder:text-gray-500",
  "focus:outline-2 focus:outline-offset-1 focus:outline-blue-600 dark:focus:outline-blue-400",
  "disabled:cursor-not-allowed disabled:opacity-60",
  "dark:bg-gray-800 dark:text-gray-50 dark:placeholder:text-gray-400",
);

export function Input({ invalid, className, ref, ...props }: InputProps) {
  return (
    <input
      ref={ref}
      aria-invalid={invalid || undefined}
      className={cn(inputClassName, invalid ? "border-red-600 dark:border-red-400" : "border-gray-400 dark:border-gray-600", className)}
      {...props}
    />
  );
}

export function FieldError({ id, children }: { id?: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
      {children}
    </p>
  );
}

interface ControlProps {
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

export interface FieldProps {
  label: ReactNode;
  /** Error text shown under the control and linked with aria-describedby. */
  error?: ReactNode;
  hint?: ReactNode;
  id?: string;
  className?: string;
  /** One control (Input, select, textarea); it receives id, aria-describedby and aria-invalid. */
  children: ReactElement<ControlProps>;
}

/** Label + control + hint + error, wired for assistive technology. */
export function Field({ label, error, hint, id, className, children }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? children.props.id ?? autoId;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [children.props["aria-describedby"], hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {/* aria-invalid only when the Field shows an error: the control's own (an Input's `invalid`) stays otherwise. */}
      {cloneElement(children, { id: controlId, "aria-describedby": describedBy, ...(error ? { "aria-invalid": true } : {}) })}
      {hint ? (
        <p id={hintId} className="text-xs text-gray-600 dark:text-gray-300">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

export interface TextFieldProps extends InputProps {
  label: ReactNode;
  error?: ReactNode;
  hint?: ReactNode;
  fieldClassName?: string;
}

/** The common case: a labelled text input with optional error. */
export function TextField({ label, error, hint, fieldClassName, id, ...inputProps }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={fieldClassName}>
      <Input invalid={Boolean(error)} {...inputProps} />
    </Field>
  );
}
