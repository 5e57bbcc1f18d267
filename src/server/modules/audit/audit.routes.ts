import type { ZodApp } from "../../app.js";

/** Routes of the audit module (to be built). */
export async function auditRoutes(_app: ZodApp): Promise<void> {}
