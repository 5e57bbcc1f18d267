import { z } from "zod";
import { ping } from "../../db/client.js";
import { errorAnswers } from "../../openapi.js";
import type { ZodApp } from "../../zod-app.js";

/** GET /api/health: whether the database answers (200, else 503), for a supervisor or a load balancer. */
export async function healthRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/health",
    {
      config: { public: true },
      schema: {
        tags: ["health"],
        summary: "200 when the database answers, 503 otherwise",
        response: { 200: z.object({ status: z.literal("ok") }), ...errorAnswers(503) },
      },
    },
    async () => {
      // A failure is a 503 through the error handler (the database is unavailable).
      await ping(app.db);
      return { status: "ok" as const };
    },
  );
}
