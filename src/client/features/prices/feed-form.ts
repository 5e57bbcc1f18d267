// The Add feed form: its inputs as text, and the body they make, checked by the contract's schema.
import { z } from "zod";
import { FEED_FORMATS, type FeedFormat } from "../../../contract/market";
import { type CreateFeedBody, createFeedBodySchema } from "../../../contract/prices";

export interface FeedFormValues {
  name: string;
  format: FeedFormat;
  /** Blank: the feed is uploaded by hand. */
  url: string;
  /** TCGCSV only. */
  products_url: string;
}

export const EMPTY_FEED_FORM: FeedFormValues = { name: "", format: "csv", url: "", products_url: "" };

/** A TCGCSV feed comes as two files (or two addresses): its products, then their prices. */
export const isTwoFiles = (format: FeedFormat) => format === "tcgcsv";

export const feedFormSchema = z
  .object({ name: z.string(), format: z.enum(FEED_FORMATS), url: z.string(), products_url: z.string() })
  .transform((v, ctx): CreateFeedBody => {
    const body = createFeedBodySchema.safeParse({
      name: v.name,
      format: v.format,
      url: v.url.trim() || null,
      products_url: isTwoFiles(v.format) ? v.products_url.trim() || null : null,
    });
    if (body.success) return body.data;
    for (const issue of body.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
