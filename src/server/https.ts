import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";
import { lanAddresses } from "./lan.js";

/** What the HTTPS server needs, and what the start banner says about it. */
export interface Tls {
  key: string;
  cert: string;
  /** Generated here (the phone must accept it) or given (HTTPS_CERT/HTTPS_KEY). */
  source: "generated" | "reused" | "given";
  /** SHA-256 fingerprint, as browsers show it in the certificate's details. */
  fingerprint: string;
  /** Where a generated certificate is kept. */
  folder?: string;
  validTo: string;
}

/** A generated certificate lasts this long (browsers refuse server certificates valid for much longer). */
const VALID_DAYS = 397;
/** A generated certificate is replaced this long before it expires. */
const RENEW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface TlsOptions {
  /** HTTPS_CERT and HTTPS_KEY: PEM files to use as they are. */
  certFile?: string;
  keyFile?: string;
  /** Where a generated certificate is kept (a folder under DATA_DIR). */
  folder: string;
  /** Names and addresses the certificate must name (default: localhost, this host and its LAN addresses). */
  names?: string[];
  now?: Date;
}

/**
 * The certificate to serve HTTPS with: the given files, or a self-signed one generated on the
 * first start and kept in `folder`, so a phone that accepted it once is not asked again. A kept
 * certificate is replaced when it expires within RENEW_DAYS or no longer names one of this
 * machine's addresses (a new address on the shop's Wi-Fi).
 */
export async function loadTls(options: TlsOptions): Promise<Tls> {
  if (options.certFile || options.keyFile) {
    if (!options.certFile || !options.keyFile)
      throw new Error("HTTPS_CERT and HTTPS_KEY go together: set both, or neither to generate one");
    const cert = readFileSync(options.certFile, "utf8");
    const key = readFileSync(options.keyFile, "utf8");
    const x509 = new X509Certificate(cert);
    return { key, cert, source: "given", fingerprint: x509.fingerprint256, validTo: x509.validTo };
  }
  const now = options.now ?? new Date();
  const names = options.names ?? defaultNames();
  const certPath = join(options.folder, "cert.pem");
  const keyPath = join(options.folder, "key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, "utf8");
    const x509 = new X509Certificate(cert);
    if (stillGood(x509, names, now)) {
      return {
        key: readFileSync(keyPath, "utf8"),
        cert,
        source: "reused",
        fingerprint: x509.fingerprint256,
        folder: options.folder,
        validTo: x509.validTo,
      };
    }
  }
  const pems = await generate([{ name: "commonName", value: "Blez Inventory (self-signed)" }], {
    keyType: "rsa",
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
      },
    ],
  });
  mkdirSync(options.folder, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
  const x509 = new X509Certificate(pems.cert);
  return {
    key: pems.private,
    cert: pems.cert,
    source: "generated",
    fingerprint: x509.fingerprint256,
    folder: options.folder,
    validTo: x509.validTo,
  };
}

/** localhost, this host's name (also as name.local, how phones find it by mDNS) and its addresses. */
function defaultNames(): string[] {
  const host = hostname();
  const names = ["localhost", "127.0.0.1", "::1", ...lanAddresses().map((a) => a.address)];
  if (host && host !== "localhost") names.push(host, host.endsWith(".local") ? host : `${host}.local`);
  return [...new Set(names)];
}

function stillGood(x509: X509Certificate, names: string[], now: Date): boolean {
  if (new Date(x509.validTo).getTime() - now.getTime() < RENEW_DAYS * DAY_MS) return false;
  return names.every((name) => (isIP(name) ? x509.checkIP(name) !== undefined : x509.checkHost(name) !== undefined));
}
