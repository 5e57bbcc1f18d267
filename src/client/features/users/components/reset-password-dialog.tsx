import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { User } from "../../../../contract/users";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input } from "../../../components/ui/field";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { useResetPassword } from "../api/reset-password";
import {
  EMPTY_RESET_PASSWORD_FORM,
  firstErrorMessage,
  RESET_PASSWORD_FAILED,
  type ResetPasswordFormValues,
  resetPasswordFormSchema,
} from "../user-forms";
import { FormError } from "./form-error";
import { PasswordStrengthMeter } from "./password-strength-meter";

const FIELD_ORDER = ["newPassword", "confirmPassword"];

export interface ResetPasswordDialogProps {
  user: Pick<User, "id" | "username">;
  onClose: () => void;
}

/** 'Reset Password' for another user: new password twice; their sessions end on the server. */
export function ResetPasswordDialog({ user, onClose }: ResetPasswordDialogProps) {
  const reset = useResetPassword();
  const id = useId();
  const form = useForm<ResetPasswordFormValues, unknown, { newPassword: string }>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: EMPTY_RESET_PASSWORD_FORM,
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const { errors } = form.formState;
  const saving = reset.isPending || form.formState.isSubmitting;
  const message = firstErrorMessage(errors, FIELD_ORDER) ?? serverError;
  const errorId = `${id}-error`;
  const strengthId = `${id}-strength`;
  const newPassword = form.watch("newPassword");

  const onSubmit = form.handleSubmit(async ({ newPassword: password }) => {
    setServerError(null);
    try {
      await reset.mutateAsync({ id: user.id, newPassword: password });
      notify.success(`Password reset for ${user.username}`);
      onClose();
    } catch (err) {
      const detail = messageOr(err, "");
      setServerError(detail && detail !== RESET_PASSWORD_FAILED ? `${RESET_PASSWORD_FAILED}: ${detail}` : RESET_PASSWORD_FAILED);
    }
  });

  const describedBy = (field: keyof ResetPasswordFormValues, extra?: string) =>
    [errors[field] ? errorId : undefined, extra].filter(Boolean).join(" ") || undefined;
  const invalid = (field: keyof ResetPasswordFormValues) => Boolean(errors[field]);

  return (
    <Dialog
      onClose={onClose}
      busy={saving}
      title="Reset Password"
      description={`Set a new password for ${user.username}. They are signed out everywhere.`}
    >
      <form onSubmit={onSubmit} onChange={clearErrors} noValidate className="flex flex-col gap-4" aria-label="Reset Password">
        <FormError id={errorId} message={message} />
        {/* Lets password managers tie the new password to the right account. */}
        <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
        <div className="flex flex-col gap-2">
          <Field label="New Password" id={`${id}-new`}>
            <Input
              {...form.register("newPassword")}
              autoFocus
              type="password"
              autoComplete="new-password"
              disabled={saving}
              invalid={invalid("newPassword")}
              aria-describedby={describedBy("newPassword", newPassword ? strengthId : undefined)}
            />
          </Field>
          <PasswordStrengthMeter password={newPassword} id={strengthId} />
        </div>
        <Field label="Confirm New Password" id={`${id}-confirm`}>
          <Input
            {...form.register("confirmPassword")}
            type="password"
            autoComplete="new-password"
            disabled={saving}
            invalid={invalid("confirmPassword")}
            aria-describedby={describedBy("confirmPassword")}
          />
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Resetting..." : "Reset Password"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
