/** Where the browser tests' server listens and who its first admin is (a throwaway test account). */
/** The large-catalogue run (playwright.large.config.ts, E2E_LARGE=1) has a server of its own on the next port. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100) + (process.env.E2E_LARGE ? 1 : 0);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { username: "e2e-admin", password: "e2e-admin-password" } as const;
