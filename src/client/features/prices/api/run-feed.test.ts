// @vitest-environment node
import { afterEach, describe, expect, it } from "vitest";
import type { FeedRun } from "../../../../contract/prices";
import { answerJson, startTestServer, type TestServer } from "../../../test/test-server";
import { runFeed } from "./run-feed";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const run: FeedRun = {
  id: 9,
  feed_id: 3,
  status: "done",
  trigger: "upload",
  day: "2026-03-14",
  records: 2,
  matched: 2,
  proposals: 1,
  problems: [],
  error: null,
  started_at: "2026-03-14T08:00:00.000Z",
  finished_at: "2026-03-14T08:00:01.000Z",
};

interface Seen {
  url?: string;
  method?: string;
  type?: string;
  body: string;
}

async function serve(): Promise<Seen[]> {
  const seen: Seen[] = [];
  server = await startTestServer((req, res, body) => {
    seen.push({ url: req.url, method: req.method, type: req.headers["content-type"], body });
    answerJson(res, 200, run);
  });
  return seen;
}

/** The multipart body's field names, in order. */
const fieldsOf = (body: string) => [...body.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]);

describe("runFeed", () => {
  it("sends a feed's file as the one `file` field of a multipart body, and answers the run", async () => {
    const seen = await serve();
    const file = new File(["scryfall_id,price\nabc,12.34\n"], "prices.csv", { type: "text/csv" });
    expect(await runFeed(3, { file })).toEqual(run);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: "/api/prices/feeds/3/run", method: "POST" });
    expect(seen[0]?.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(fieldsOf(seen[0]?.body ?? "")).toEqual(["file"]);
    expect(seen[0]?.body).toContain('filename="prices.csv"');
    expect(seen[0]?.body).toContain("abc,12.34");
  });

  it("sends a TCGCSV feed as `products` then `prices`", async () => {
    const seen = await serve();
    await runFeed(3, { prices: new Blob(['{"results":[]}']), products: new Blob(['{"results":[{"productId":1}]}']) });
    expect(fieldsOf(seen[0]?.body ?? "")).toEqual(["products", "prices"]);
  });

  it("without files asks the server to fetch the feed's URL: no body", async () => {
    const seen = await serve();
    await runFeed(3, null);
    expect(seen[0]).toMatchObject({ url: "/api/prices/feeds/3/run", method: "POST", type: undefined, body: "" });
  });
});
