import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { FEED_FORMAT_LABELS, FEED_FORMATS } from "../../../../contract/market";
import { type CreateFeedBody, FEED_NAME_MAX } from "../../../../contract/prices";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Field, FieldError, inputClassName, TextField } from "../../../components/ui/field";
import { cn } from "../../../lib/cn";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { useCreateFeed } from "../api/create-feed";
import { EMPTY_FEED_FORM, type FeedFormValues, feedFormSchema, isTwoFiles } from "../feed-form";

export const ADD_FEED_FAILED = "Failed to add the feed";
const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");

/** Add a feed: its name, its format, and where the server fetches it daily (optional: else its files are uploaded). */
export function AddFeedDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateFeed();
  const form = useForm<FeedFormValues, unknown, CreateFeedBody>({
    resolver: zodResolver(feedFormSchema),
    defaultValues: EMPTY_FEED_FORM,
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const format = form.watch("format");
  const errors = form.formState.errors;
  const saving = create.isPending;

  const onSubmit = form.handleSubmit(async (body) => {
    setServerError(null);
    try {
      const feed = await create.mutateAsync(body);
      notify.success(`Feed "${feed.name}" added`);
      onClose();
    } catch (err) {
      setServerError(messageOr(err, ADD_FEED_FAILED));
    }
  });

  const urlHint = "Where the server fetches it every day. Leave it empty to upload its files yourself.";
  return (
    <Dialog
      onClose={onClose}
      title="Add price feed"
      busy={saving}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form="add-feed-form" disabled={saving}>
            {saving ? "Adding..." : "Add feed"}
          </Button>
        </>
      }
    >
      <form id="add-feed-form" onSubmit={onSubmit} onChange={clearErrors} noValidate className="flex flex-col gap-4">
        <TextField
          label="Name"
          maxLength={FEED_NAME_MAX}
          placeholder="TCGplayer Pokemon"
          error={errors.name?.message}
          disabled={saving}
          {...form.register("name")}
        />
        <Field label="Format" error={errors.format?.message}>
          <select className={selectClassName} disabled={saving} {...form.register("format")}>
            {FEED_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FEED_FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </Field>
        {isTwoFiles(format) ? (
          <>
            <TextField
              label="Products URL (optional)"
              type="url"
              placeholder="https://tcgcsv.com/tcgplayer/3/604/products"
              error={errors.products_url?.message}
              disabled={saving}
              {...form.register("products_url")}
            />
            <TextField
              label="Prices URL (optional)"
              type="url"
              placeholder="https://tcgcsv.com/tcgplayer/3/604/prices"
              hint={urlHint}
              error={errors.url?.message}
              disabled={saving}
              {...form.register("url")}
            />
          </>
        ) : (
          <TextField
            label="URL (optional)"
            type="url"
            placeholder="https://example.com/prices.csv"
            hint={urlHint}
            error={errors.url?.message}
            disabled={saving}
            {...form.register("url")}
          />
        )}
        <FieldError>{serverError}</FieldError>
      </form>
    </Dialog>
  );
}
