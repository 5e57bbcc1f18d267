#!/usr/bin/env node
// `npm run lint:openapi`: writes the API's OpenAPI document (scripts/openapi-document.ts, the one
// /api/docs serves) and checks it with Redocly's recommended ruleset (redocly.yaml; the findings
// that are not mistakes are listed with reasons in .redocly.lint-ignore.yaml, by this path).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

const DOCUMENT = "node_modules/.cache/openapi/openapi.json";
mkdirSync(dirname(DOCUMENT), { recursive: true });

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("npx", ["--no-install", "tsx", "scripts/openapi-document.ts", DOCUMENT]);
// No usage reports and no update check: the lint runs in CI, offline as much as can be.
run("npx", ["--no-install", "redocly", "lint", "--extends", "recommended", DOCUMENT], {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
});
