import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useMemo } from "react";
import { useForm } from "react-hook-form";
import { ROLE_LABELS, type Role } from "../../../../contract/permissions";
import type { CreateUserBody } from "../../../../contract/users";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input, inputClassName } from "../../../components/ui/field";
import { cn } from "../../../lib/cn";
import { useServerError } from "../../../lib/use-server-error";
import { failureText, notify } from "../../notifications";
import { useCreateUser } from "../api/create-user";
import {
  CREATE_USER_FAILED,
  type CreateUserFormValues,
  creatableRoles,
  createUserFormSchema,
  EMPTY_CREATE_USER_FORM,
  firstErrorMessage,
} from "../user-forms";
import { FormError } from "./form-error";
import { PasswordStrengthMeter } from "./password-strength-meter";

const FIELD_ORDER = ["username", "password", "confirmPassword", "role"];

export interface CreateUserDialogProps {
  /** Role of the signed-in creator: only a super_admin is offered super_admin. */
  actorRole: Role;
  onClose: () => void;
}

/** 'Create New User': username, password twice, role; the spec's messages one at a time. */
export function CreateUserDialog({ actorRole, onClose }: CreateUserDialogProps) {
  const create = useCreateUser();
  const id = useId();
  const roles = creatableRoles(actorRole);
  const schema = useMemo(() => createUserFormSchema(actorRole), [actorRole]);
  const form = useForm<CreateUserFormValues, unknown, CreateUserBody>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY_CREATE_USER_FORM,
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const { errors } = form.formState;
  const saving = create.isPending || form.formState.isSubmitting;
  const message = firstErrorMessage(errors, FIELD_ORDER) ?? serverError;
  const errorId = `${id}-error`;
  const strengthId = `${id}-strength`;
  const password = form.watch("password");

  const onSubmit = form.handleSubmit(async (body) => {
    setServerError(null);
    try {
      const user = await create.mutateAsync(body);
      notify.success(`User ${user.username} created`);
      onClose();
    } catch (err) {
      setServerError(failureText(CREATE_USER_FAILED, err));
    }
  });

  const describedBy = (field: keyof CreateUserFormValues, extra?: string) =>
    [errors[field] || (serverError && field === "username") ? errorId : undefined, extra].filter(Boolean).join(" ") || undefined;
  const invalid = (field: keyof CreateUserFormValues) => Boolean(errors[field]);

  return (
    <Dialog onClose={onClose} busy={saving} title="Create New User" description="The new user signs in with this username and password.">
      <form onSubmit={onSubmit} onChange={clearErrors} noValidate className="flex flex-col gap-4" aria-label="Create New User">
        <FormError id={errorId} message={message} />
        <Field label="Username" id={`${id}-username`}>
          <Input
            {...form.register("username")}
            autoFocus
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            disabled={saving}
            invalid={invalid("username")}
            aria-describedby={describedBy("username")}
          />
        </Field>
        <div className="flex flex-col gap-2">
          <Field label="Password" id={`${id}-password`}>
            <Input
              {...form.register("password")}
              type="password"
              autoComplete="new-password"
              disabled={saving}
              invalid={invalid("password")}
              aria-describedby={describedBy("password", password ? strengthId : undefined)}
            />
          </Field>
          <PasswordStrengthMeter password={password} id={strengthId} />
        </div>
        <Field label="Confirm Password" id={`${id}-confirm`}>
          <Input
            {...form.register("confirmPassword")}
            type="password"
            autoComplete="new-password"
            disabled={saving}
            invalid={invalid("confirmPassword")}
            aria-describedby={describedBy("confirmPassword")}
          />
        </Field>
        <Field label="Role" id={`${id}-role`}>
          <select
            {...form.register("role")}
            disabled={saving}
            aria-invalid={invalid("role") || undefined}
            aria-describedby={describedBy("role")}
            className={cn(inputClassName, invalid("role") ? "border-red-600 dark:border-red-400" : "border-gray-400 dark:border-gray-600")}
          >
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Creating..." : "Create User"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
