import type { ZodApp } from "../../app.js";

/** Routes of the users module (to be built). */
export async function usersRoutes(_app: ZodApp): Promise<void> {}
