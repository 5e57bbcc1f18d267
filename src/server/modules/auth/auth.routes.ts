import type { ZodApp } from "../../app.js";

/** Routes of the auth module (to be built). */
export async function authRoutes(_app: ZodApp): Promise<void> {}
