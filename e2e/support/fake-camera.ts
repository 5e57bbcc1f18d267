import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "@playwright/test";
import bwipjs from "bwip-js/node";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/chromium.mjs";

/**
 * A .y4m video of a barcode on a white frame, for Chromium's fake camera: an EAN-13 by default,
 * or a UPC-A (12 digits, as printed on US sealed product). Made with bwip-js and ffmpeg (Debian's
 * package, installed by scripts/ensure-chromium.mjs).
 */
export async function barcodeVideo(code: string, symbology: "ean13" | "upca" = "ean13"): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "blez-camera-"));
  const png = await bwipjs.toBuffer({
    bcid: symbology,
    text: code,
    scale: 3,
    height: 25,
    includetext: true,
    paddingwidth: 20,
    paddingheight: 20,
    backgroundcolor: "FFFFFF",
  });
  const pngPath = join(dir, "code.png");
  writeFileSync(pngPath, png);
  return imageVideo(pngPath);
}

/** A .y4m video of a picture (e.g. a printed label) centred on a white frame, for Chromium's fake camera. */
export function imageVideo(pngPath: string): string {
  const videoPath = `${pngPath}.y4m`;
  execFileSync("ffmpeg", [
    "-loglevel",
    "error",
    "-y",
    "-loop",
    "1",
    "-i",
    pngPath,
    "-vf",
    "scale=480:-2,pad=640:480:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p",
    "-frames:v",
    "15",
    "-r",
    "15",
    videoPath,
  ]);
  return videoPath;
}

/** A Chromium whose camera shows `videoPath` and which grants camera access without asking. */
export async function launchWithCamera(videoPath: string): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("No Chromium found: run `node scripts/ensure-chromium.mjs`.");
  return chromium.launch({
    executablePath,
    args: [
      ...CHROMIUM_ARGS,
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-video-capture=${videoPath}`,
    ],
  });
}
