import { expect, test } from "@playwright/test";
import { uniqueEan13 } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { barcodeVideo, launchWithCamera } from "./support/fake-camera";

test("serves the app, the API and its documentation", async ({ page, request }) => {
  await page.goto("/");
  await expect(page).toHaveTitle("Blez Inventory");
  expect((await request.get("/api/health")).status()).toBe(200);
  const docs = await request.get("/api/docs/json");
  expect(docs.status()).toBe(200);
  expect(((await docs.json()) as { openapi: string }).openapi).toMatch(/^3\./);
});

test("the fake camera shows a barcode video", async () => {
  const browser = await launchWithCamera(await barcodeVideo(uniqueEan13()));
  try {
    const page = await browser.newPage();
    await page.goto(E2E_BASE_URL); // a secure context (localhost) may use the camera
    const tracks = await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true });
      const settings = stream.getVideoTracks()[0]?.getSettings();
      for (const t of stream.getTracks()) t.stop();
      return settings ? { width: settings.width, height: settings.height } : null;
    });
    expect(tracks).toEqual({ width: 640, height: 480 });
  } finally {
    await browser.close();
  }
});
