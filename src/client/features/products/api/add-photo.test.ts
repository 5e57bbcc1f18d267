// @vitest-environment node
import { afterEach, describe, expect, it } from "vitest";
import { PHOTO_FIELD } from "../../../../contract/photos";
import { ApiError, onSessionEnded } from "../../../lib/http";
import { fakeProduct as product } from "../../../test/product-fakes";
import { answerJson, startTestServer, type TestServer } from "../../../test/test-server";
import { addPhoto } from "./add-photo";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("addPhoto", () => {
  it("sends the file as multipart/form-data under the photo field and answers the photo and the product", async () => {
    const seen: Array<{ url?: string; method?: string; type?: string; body: string }> = [];
    const answer = { photo: { id: 4 }, product: product(3, 2) };
    server = await startTestServer((req, res, body) => {
      seen.push({ url: req.url, method: req.method, type: req.headers["content-type"], body });
      answerJson(res, 201, answer);
    });
    const result = await addPhoto(3, new Blob(["not really a png"], { type: "image/png" }), "card.png");
    expect(result).toEqual(answer);
    expect(seen).toHaveLength(1);
    const [sent] = seen;
    expect(sent).toMatchObject({ url: "/api/products/3/photos", method: "POST" });
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(sent?.type ?? "")?.[1];
    expect(boundary).toBeTruthy();
    expect(sent?.body).toContain(`--${boundary}`);
    expect(sent?.body).toContain(`name="${PHOTO_FIELD}"; filename="card.png"`);
    expect(sent?.body).toContain("not really a png");
  });

  it("a refused upload rejects with the server's message", async () => {
    server = await startTestServer((_req, res) => answerJson(res, 413, { error: "The photo is larger than 15 MB" }));
    const err = await addPhoto(3, new Blob(["x"])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 413, message: "The photo is larger than 15 MB" });
  });

  it("a 401 reaches the one session-ended handler, as every call's does", async () => {
    server = await startTestServer((_req, res) => answerJson(res, 401, { error: "Not signed in" }));
    let ended = 0;
    const stop = onSessionEnded(() => ended++);
    try {
      const err = await addPhoto(3, new Blob(["x"])).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 401, message: "Not signed in" });
      expect(ended).toBe(1);
    } finally {
      stop();
    }
  });
});
