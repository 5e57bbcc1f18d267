import { createPrivateKey, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { startBanner } from "./banner.js";
import { loadConfig } from "./config.js";
import { loadTls } from "./https.js";
import { lanAddresses, listeningUrls } from "./lan.js";
import { testConfig } from "./test/config.js";
import { createTestDatabase } from "./test/test-app.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "blez-tls-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const names = ["localhost", "127.0.0.1", "192.168.1.20", "shop-laptop.local"];

describe("HTTPS certificate", () => {
  it("is generated on the first start, kept in the data folder and reused on the next", async () => {
    const folder = join(tempDir(), "https");
    const first = await loadTls({ folder, names });
    expect(first.source).toBe("generated");
    const x509 = new X509Certificate(first.cert);
    expect(x509.checkIP("192.168.1.20")).toBe("192.168.1.20");
    expect(x509.checkHost("shop-laptop.local")).toBe("shop-laptop.local");
    expect(x509.checkPrivateKey(createPrivateKey(first.key))).toBe(true);
    // Issued by the local authority kept beside it (a phone trusts that once).
    const ca = new X509Certificate(first.ca?.cert ?? "");
    expect(ca.ca).toBe(true);
    expect(x509.checkIssued(ca)).toBe(true);
    expect(x509.verify(ca.publicKey)).toBe(true);
    // The private keys are readable by this user only.
    expect(statSync(join(folder, "key.pem")).mode & 0o077).toBe(0);
    expect(statSync(join(folder, "ca-key.pem")).mode & 0o077).toBe(0);

    const again = await loadTls({ folder, names });
    expect(again.source).toBe("reused");
    expect(again.fingerprint).toBe(first.fingerprint);
  });

  it("is replaced when the machine has a new address, or when it is about to expire", async () => {
    const folder = join(tempDir(), "https");
    const first = await loadTls({ folder, names });
    const moved = await loadTls({ folder, names: [...names, "10.0.0.7"] });
    expect(moved.source).toBe("generated");
    expect(moved.fingerprint).not.toBe(first.fingerprint);
    // The same authority issues it: a phone that trusts it needs nothing new.
    expect(moved.ca?.fingerprint).toBe(first.ca?.fingerprint);
    const later = await loadTls({ folder, names: [...names, "10.0.0.7"], now: new Date(Date.now() + 380 * 86_400_000) });
    expect(later.source).toBe("generated");
  });

  it("uses HTTPS_CERT and HTTPS_KEY when given (both or neither)", async () => {
    const made = await loadTls({ folder: join(tempDir(), "made"), names });
    const dir = tempDir();
    writeFileSync(join(dir, "c.pem"), made.cert);
    writeFileSync(join(dir, "k.pem"), made.key);
    const given = await loadTls({ folder: join(dir, "unused"), certFile: join(dir, "c.pem"), keyFile: join(dir, "k.pem") });
    expect(given).toMatchObject({ source: "given", fingerprint: made.fingerprint, cert: made.cert, key: made.key });
    await expect(loadTls({ folder: dir, certFile: join(dir, "c.pem") })).rejects.toThrow("HTTPS_CERT and HTTPS_KEY go together");
  });
});

const interfaces = {
  lo: [{ address: "127.0.0.1", netmask: "255.0.0.0", family: "IPv4", mac: "00:00:00:00:00:00", internal: true, cidr: "127.0.0.1/8" }],
  wlan0: [
    { address: "fe80::1", netmask: "ffff:ffff:ffff:ffff::", family: "IPv6", mac: "aa", internal: false, cidr: "fe80::1/64", scopeid: 2 },
    {
      address: "2001:db8::5",
      netmask: "ffff:ffff:ffff:ffff::",
      family: "IPv6",
      mac: "aa",
      internal: false,
      cidr: "2001:db8::5/64",
      scopeid: 0,
    },
    { address: "192.168.1.20", netmask: "255.255.255.0", family: "IPv4", mac: "aa", internal: false, cidr: "192.168.1.20/24" },
  ],
  eth0: [{ address: "169.254.3.4", netmask: "255.255.0.0", family: "IPv4", mac: "bb", internal: false, cidr: "169.254.3.4/16" }],
} as unknown as NonNullable<Parameters<typeof lanAddresses>[0]>;

describe("start banner", () => {
  it("lists every LAN address the server listens on, IPv4 first, without loopback and link-local ones", () => {
    expect(lanAddresses(interfaces).map((a) => a.address)).toEqual(["192.168.1.20", "2001:db8::5"]);
    expect(listeningUrls({ host: "0.0.0.0", port: 3000, https: true, interfaces })).toEqual({
      local: "https://localhost:3000",
      lan: ["https://192.168.1.20:3000"],
    });
    expect(listeningUrls({ host: "::", port: 3000, https: false, interfaces }).lan).toEqual([
      "http://192.168.1.20:3000",
      "http://[2001:db8::5]:3000",
    ]);
    expect(listeningUrls({ host: "127.0.0.1", port: 3100, https: false, interfaces })).toEqual({ local: "http://localhost:3100", lan: [] });
    expect(listeningUrls({ host: "192.168.1.20", port: 3000, https: true, interfaces }).lan).toEqual(["https://192.168.1.20:3000"]);
  });

  it("says what the phone will show and how to accept a self-signed certificate", async () => {
    const tls = await loadTls({ folder: join(tempDir(), "https"), names });
    const text = startBanner({
      urls: { local: "https://localhost:3000", lan: ["https://192.168.1.20:3000"] },
      database: "PostgreSQL",
      tls,
    });
    expect(text).toContain("Blez Inventory is running on https://localhost:3000 (PostgreSQL)");
    expect(text).toContain("    https://192.168.1.20:3000");
    expect(text).toContain("not private");
    expect(text).toContain('"Proceed to 192.168.1.20 (unsafe)"');
    expect(text).toContain("visit this website");
    expect(text).toContain(tls.fingerprint);
    expect(text).toContain("open https://192.168.1.20:3000/blez-ca.crt on the phone");
    expect(text).toContain("Install a certificate > CA certificate");
    expect(text).toContain(tls.ca?.fingerprint);
  });

  it("without HTTPS, says a phone's camera needs it", () => {
    const text = startBanner({ urls: { local: "http://localhost:3000", lan: ["http://192.168.1.20:3000"] }, database: "PostgreSQL" });
    expect(text).toContain("start with HTTPS=1");
  });
});

describe("HTTPS=1", () => {
  it("turns HTTPS on (also with HTTPS_CERT/HTTPS_KEY) and marks cookies Secure unless COOKIE_SECURE says otherwise", () => {
    expect(loadConfig({}).HTTPS).toBe(false);
    expect(loadConfig({}).COOKIE_SECURE).toBe(false);
    expect(loadConfig({ HTTPS: "1" })).toMatchObject({ HTTPS: true, COOKIE_SECURE: true });
    expect(loadConfig({ HTTPS_CERT: "c.pem", HTTPS_KEY: "k.pem" })).toMatchObject({ HTTPS: true, COOKIE_SECURE: true });
    expect(loadConfig({ HTTPS: "1", COOKIE_SECURE: "0" })).toMatchObject({ HTTPS: true, COOKIE_SECURE: false });
    expect(loadConfig({ COOKIE_SECURE: "1" })).toMatchObject({ HTTPS: false, COOKIE_SECURE: true });
  });

  it("serves the API and the live connection over HTTPS with the certificate", async () => {
    const tls = await loadTls({ folder: join(tempDir(), "https"), names });
    const { database, drop } = await createTestDatabase();
    const config = { ...testConfig(), ...loadConfig({ HTTPS: "1" }), LOG_LEVEL: "silent" as const };
    const app = await buildApp({ config, database, serveClient: false, tls });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const address = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      // Trusting the local authority alone is enough: the phone that installed it.
      const ca = tls.ca?.cert ?? "";
      const get = (path: string) =>
        new Promise<{ status: number; body: string; cert: string }>((resolve, reject) => {
          const req = httpsRequest(`${address}${path}`, { ca, servername: "localhost" }, (res) => {
            const cert = (res.socket as TLSSocket).getPeerX509Certificate()?.fingerprint256 ?? "";
            let body = "";
            res.on("data", (chunk) => {
              body += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body, cert }));
          });
          req.on("error", reject);
          req.end();
        });
      const health = await get("/api/health");
      expect(health.status).toBe(200);
      expect(health.cert).toBe(tls.fingerprint);
      // socket.io answers its handshake on the same HTTPS port.
      const handshake = await get("/socket.io/?EIO=4&transport=polling");
      expect(handshake.status).toBe(200);
      expect(handshake.body).toContain('"sid"');
      // The authority to trust, for anyone to download.
      const authority = await get("/blez-ca.crt");
      expect(authority.status).toBe(200);
      expect(authority.body).toBe(tls.ca?.cert);
    } finally {
      await app.close();
      await database.close();
      await drop();
    }
  });
});
