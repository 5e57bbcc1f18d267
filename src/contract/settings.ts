import { z } from "zod";

/** GET /api/settings: what every signed-in screen needs to know about the shop. */
export const settingsSchema = z.object({
  /** ISO 4217 code of the shop's currency (the CURRENCY setting, default USD). */
  currency: z.string(),
});
export type Settings = z.infer<typeof settingsSchema>;
