import { CA_CERT_PATH, type Tls } from "./https.js";

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "");

export interface BannerInput {
  /** listeningUrls(): this computer's address and the shop network's ones. */
  urls: { local: string; lan: string[] };
  database: string;
  tls?: Tls;
}

/**
 * What `npm start` prints once the server listens: where to open the app on this computer and
 * on a phone on the same network, and, with HTTPS, what the phone will show, how to go past it
 * and how to trust the local authority for good (which installing the app needs). Without HTTPS
 * it says why a phone's camera needs it.
 */
export function startBanner({ urls, database, tls }: BannerInput): string {
  const lines = [`Blez Inventory is running on ${urls.local} (${database})`];
  if (urls.lan.length > 0) {
    lines.push("  On a phone or tablet on the same network, open:");
    for (const url of urls.lan) lines.push(`    ${url}`);
  } else {
    lines.push("  Only this computer can reach it (HOST limits it, or no network is up).");
  }
  if (!tls) {
    if (urls.lan.length > 0) {
      lines.push(
        "  Phone cameras work only over HTTPS on any address but localhost: start with HTTPS=1 to scan",
        "  with a phone's camera (README, 'Streaming from a phone').",
      );
    }
    return lines.join("\n");
  }
  if (tls.source === "given") {
    lines.push(`  HTTPS with the certificate from HTTPS_CERT (valid until ${tls.validTo}).`);
  } else {
    const host = hostOf(urls.lan[0] ?? urls.local);
    const caUrl = `${urls.lan[0] ?? urls.local}${CA_CERT_PATH}`;
    lines.push(
      `  HTTPS with a certificate ${tls.source === "generated" ? "made now" : "made on an earlier start"} by this computer's own authority, kept in ${tls.folder} (valid until ${tls.validTo}).`,
      "  The first time, the phone's browser warns that the connection is not private, because it does not",
      "  know that authority. Check that the fingerprint below is the one the browser shows under the",
      "  certificate's details, then go on:",
      `    Chrome (Android): "Advanced", then "Proceed to ${host} (unsafe)".`,
      '    Safari (iPhone):  "Show Details", then "visit this website", then "Visit Website".',
      "  That is enough to scan with the camera. To install the app on the home screen and use it while the",
      "  server is out of reach, trust the authority once (the phone then shows no warning either):",
      `    open ${caUrl} on the phone, then`,
      "    Android: Settings > Security > Encryption & credentials > Install a certificate > CA certificate;",
      "    iPhone:  Settings > Profile Downloaded > Install, then General > About > Certificate Trust Settings.",
      `  Authority SHA-256 fingerprint: ${tls.ca?.fingerprint ?? "-"}`,
    );
  }
  lines.push(`  Certificate SHA-256 fingerprint: ${tls.fingerprint}`);
  return lines.join("\n");
}
