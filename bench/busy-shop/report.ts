import type { FirstLoad } from "./load.js";
import type { ScenarioResult } from "./scenario.js";
import { bytes, max, ms, percentile } from "./stats.js";

/** One table per database: each figure beside its target. */

type Verdict = "ok" | "MISS" | "";
const verdict = (value: number, limit: number): Verdict => (Number.isNaN(value) ? "" : value < limit ? "ok" : "MISS");
const s = (millis: number) => `${(millis / 1000).toFixed(1)} s`;
const pair = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))} ms`;

function loadLine(load: FirstLoad | { error: string } | undefined): string {
  if (!load) return "n/a";
  if ("error" in load) return `failed: ${load.error}`;
  return `${ms(load.ms)} ms (first byte ${ms(load.ttfbMs)} ms), ${load.encoding} ${bytes(load.wireBytes)} of ${bytes(load.jsonBytes)} JSON; client decode ${ms(load.decodeMs)}${Number.isNaN(load.parseMs) ? "" : ` + parse ${ms(load.parseMs)}`} ms`;
}

export function report(r: ScenarioResult, settings: { seconds: number; tapsPerSecond: number; importRows: number }): string {
  const rows: Array<[string, string, string, Verdict]> = [];
  const add = (measure: string, figure: string, target = "", v: Verdict = "") => rows.push([measure, figure, target, v]);
  const pgsql = r.kind === "postgres";
  const tapLimit = pgsql ? 100 : 250;

  const answered = r.taps.filter((t) => t.status === 200 || t.status === 409);
  const tapMs = answered.map((t) => t.answeredAt - t.sentAt);
  const imp = r.importWindow;
  const duringImport = imp && !Number.isNaN(imp.doneAt) ? answered.filter((t) => t.sentAt >= imp.startedAt && t.sentAt <= imp.doneAt) : [];
  const duringMs = duringImport.map((t) => t.answeredAt - t.sentAt);
  const insufficient = r.taps.filter((t) => t.status === 409).length;
  const failed = r.taps.filter((t) => t.error || (t.status !== 200 && t.status !== 409));

  add(
    `tap PUT /quantity p50 / p99, all (${answered.length} taps, ${insufficient} 409, ${failed.length} failed${failed.length ? `: ${[...new Set(failed.map((t) => t.error ?? t.status))].join(", ")}` : ""})`,
    pair(tapMs),
    `p99 < ${tapLimit} ms`,
    verdict(percentile(tapMs, 99), tapLimit),
  );
  add(
    `tap p50 / p99 while the import runs (${duringImport.length} taps)`,
    duringImport.length ? pair(duringMs) : "n/a",
    `p99 < ${tapLimit} ms`,
    verdict(percentile(duringMs, 99), tapLimit),
  );
  const onImported = duringImport.filter((t) => r.importUpdates.has(t.id)).map((t) => t.answeredAt - t.sentAt);
  const onOthers = duringImport.filter((t) => !r.importUpdates.has(t.id)).map((t) => t.answeredAt - t.sentAt);
  add(
    "· of those: on products the import updates · on other products (n: p50 / p99)",
    `${onImported.length}: ${pair(onImported)} · ${onOthers.length}: ${pair(onOthers)}`,
  );
  add("tap max", `${ms(max(tapMs))} ms`);

  const d = r.delivery;
  add(
    `commit→socket: answer→event p50 / p99 (tap × socket pairs, matched by ${d.method})`,
    pair(d.answerToEvent),
    "p99 < 50 ms",
    verdict(percentile(d.answerToEvent, 99), 50),
  );
  add("send→event p50 / p99 (all sockets) · first socket", `${pair(d.sendToEvent)} · ${pair(d.firstSendToEvent)}`);
  add(
    "tap events delivered",
    `${d.expected - d.missing} of ${d.expected} (${d.expected ? (((d.expected - d.missing) / d.expected) * 100).toFixed(2) : "n/a"}%)`,
    "100%",
    d.expected && d.missing === 0 ? "ok" : "MISS",
  );

  const e = r.edits;
  add(
    `edits PUT /api/products/{id} (${e.mode}) p50 / p99`,
    `${pair(e.latencies)}; ${e.ok} applied, ${e.conflicts} 409, ${e.other} other${e.other ? ` (${[...new Set(e.otherStatuses)].join(",")})` : ""}`,
  );

  if (imp?.answer) {
    const a = imp.answer;
    add(
      `import of ${settings.importRows} rows during the window (half new, half updates)`,
      `${s(a.ms)}${imp.windowStart === undefined ? "" : `, t = ${s(imp.startedAt - imp.windowStart)} to ${s(imp.doneAt - imp.windowStart)}`} (created ${a.created}, updated ${a.updated}, skipped ${a.skipped}, errors ${a.errors})`,
    );
  } else add(`import of ${settings.importRows} rows during the window`, imp?.error ? `failed: ${imp.error}` : "n/a");

  for (const p of r.probes) {
    const health = p.label.includes("health");
    add(
      `${health ? "stall probe" : "event-loop probe"} ${p.label} every 20 ms: p50 / p99 · max (${p.latencies.length}${p.failures ? `, ${p.failures} failed` : ""})`,
      `${pair(p.latencies)} · ${ms(max(p.latencies))} ms at t = ${s(p.worst.at)}`,
      health ? "max < 100 ms" : "",
      health ? verdict(max(p.latencies), 100) : "",
    );
  }
  add(`bench process (${r.sockets.count} socket clients) event-loop delay p99 · max`, `${ms(r.benchLoop.p99)} · ${ms(r.benchLoop.max)} ms`);

  const seconds = r.windowMs / 1000 + 2;
  const avgBytes = r.sockets.bytes.reduce((a, b) => a + b, 0) / Math.max(1, r.sockets.count);
  const avgEvents = r.sockets.events.reduce((a, b) => a + b, 0) / Math.max(1, r.sockets.count);
  add(`sockets connected (authenticated) · disconnects`, `${r.sockets.count} · ${r.sockets.disconnects}`);
  add(
    "received per socket in the window (engine.io packets)",
    `${bytes(avgBytes)} avg (${bytes(avgBytes / seconds)}/s), max ${bytes(max(r.sockets.bytes))}; ${avgEvents.toFixed(0)} inventory_update (${Object.entries(
      r.sockets.types,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")})`,
  );
  add("events carry data.idempotency_key · data.product", `${r.sockets.sawKey ? "yes" : "no"} · ${r.sockets.sawProduct ? "yes" : "no"}`);

  add(
    "first load GET /api/products (quiet, fresh client, first list request after the seed)",
    loadLine(r.quietLoad),
    "< 1.5 s",
    verdict(r.quietLoad.ms, 1500),
  );
  add(
    "· quiet, one after the other: other encodings, and ?catch_up=true as the app's client asks (twice): total (first byte), wire size",
    r.loadVariants.map((v) => `${v.label}: ${ms(v.ms)} (${ms(v.ttfbMs)}) ms, ${bytes(v.wireBytes)}`).join(" · "),
  );
  add(
    `first load ?catch_up=true during the window (at t = ${r.busyLoadAt === undefined ? "n/a" : s(r.busyLoadAt)})`,
    loadLine(r.busyLoad),
    "< 1.5 s",
    r.busyLoad === undefined ? "" : "ms" in r.busyLoad ? verdict(r.busyLoad.ms, 1500) : "MISS",
  );
  if (!r.catchUp) add("catch-up GET /api/products?since=R (R = first load's revision)", "n/a (no X-Catalogue-Revision)");
  else if ("error" in r.catchUp) add("catch-up GET /api/products?since=R", `failed: ${r.catchUp.error}`);
  else
    add(
      `catch-up GET /api/products?since=${r.catchUp.since}`,
      `${ms(r.catchUp.ms)} ms, ${r.catchUp.count} products, ${bytes(r.catchUp.wireBytes)} on the wire`,
    );

  const apiMs = r.seed.reduce((a, x) => a + x.ms, 0);
  const ratio = apiMs / r.copy.ms;
  add(
    `${r.seed.reduce((a, x) => a + x.created, 0)}-row import via API (${r.seed.length} request(s) of ≤ 50,000, fresh db) vs raw COPY`,
    `${s(apiMs)} (${r.seed.map((x) => s(x.ms)).join(" + ")}) vs ${s(r.copy.ms)} = ${ratio.toFixed(1)}x`,
    "≤ 1.5x",
    ratio <= 1.5 ? "ok" : "MISS",
  );

  const title = `Busy shop on ${pgsql ? "PostgreSQL, 2 server processes (sockets, taps and probes on both)" : "PGlite, 1 server process"}: ${s(r.windowMs)} window, ${r.sockets.count} sockets, ${settings.tapsPerSecond} taps/s, ${r.quietLoad.count} products`;
  const lines = [`\n### ${title}`, "", "| measure | figure | target | |", "| --- | --- | --- | --- |"];
  for (const [m, f, t, v] of rows) lines.push(`| ${m} | ${f} | ${t} | ${v} |`);
  lines.push("", `COPY baseline: ${r.copy.method}.`);
  if (r.serverErrors.count > 0) {
    lines.push("", `Server processes logged ${r.serverErrors.count} error(s), e.g.:`, ...r.serverErrors.samples.map((x) => `- ${x}`));
  }
  return lines.join("\n");
}
