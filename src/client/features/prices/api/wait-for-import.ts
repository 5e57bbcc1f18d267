import type { ImportJob } from "../../../../contract/import";
import { apiFetch } from "../../../lib/http";

const POLL_MS = 500;

/**
 * GET /api/products/import/jobs/{id} until the import has finished writing (done or failed): an
 * import is undone only once it is done. Answers the finished job.
 */
export async function waitForImport(id: string, signal?: AbortSignal): Promise<ImportJob> {
  for (;;) {
    const job = await apiFetch<ImportJob>(`/api/products/import/jobs/${encodeURIComponent(id)}`, { signal });
    if (job.status === "done" || job.status === "failed") return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
