// Makes sure the browser tests have a Chromium (and ffmpeg for the fake-camera videos, poppler's
// pdftoppm to turn printed labels into camera pictures):
// uses what is there, installs Debian's packages when running as root on Debian, else says what to install.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findChromium } from "./chromium.mjs";

const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
const missing = [];
if (!findChromium()) missing.push("chromium");
if (!has("ffmpeg")) missing.push("ffmpeg");
if (!has("pdftoppm")) missing.push("poppler-utils");

if (missing.length > 0) {
  const canApt = process.getuid?.() === 0 && existsSync("/etc/debian_version") && has("apt-get");
  if (!canApt) {
    console.error(
      `The browser tests need ${missing.join(" and ")}. Install ${missing.join(" and ")} from your system's packages ` +
        "(Debian/Ubuntu: sudo apt-get install chromium ffmpeg poppler-utils), or set CHROMIUM_PATH to a Chromium binary.",
    );
    process.exit(1);
  }
  console.log(`Installing ${missing.join(", ")} from Debian's packages for the browser tests...`);
  execSync("apt-get update -qq", { stdio: "inherit" });
  execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`, { stdio: "inherit" });
  if (!findChromium() || !has("ffmpeg") || !has("pdftoppm")) {
    console.error("Installing the browser-test packages did not work; see the output above.");
    process.exit(1);
  }
}
console.log(`Browser tests use ${findChromium()}`);
