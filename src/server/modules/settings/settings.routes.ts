import { settingsSchema } from "../../../contract/settings.js";
import { errorAnswers } from "../../openapi.js";
import type { ZodApp } from "../../zod-app.js";

/** GET /api/settings: the shop's settings, from the server's configuration. */
export async function settingsRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/settings",
    {
      schema: {
        tags: ["settings"],
        security: [{ session: [] }],
        summary: "The shop's settings every signed-in screen needs (its currency and time zone)",
        response: { 200: settingsSchema, ...errorAnswers(401, 503) },
      },
    },
    async () => ({ currency: app.config.CURRENCY, timezone: app.config.TIMEZONE }),
  );
}
