import { z } from "zod";

/** GET /api/settings: what every signed-in screen needs to know about the shop. */
export const settingsSchema = z.object({
  /** ISO 4217 code of the shop's currency (the CURRENCY setting, default USD). */
  currency: z.string(),
  /** The shop's time zone (the TIMEZONE setting, an IANA name): the days of reports. Absent from older servers. */
  timezone: z.string().optional(),
});
export type Settings = z.infer<typeof settingsSchema>;
