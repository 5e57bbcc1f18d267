import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { lanAddresses } from "./lan.js";

/**
 * selfsigned, loaded only when a certificate is made: it brings @peculiar/x509 and its ASN.1
 * libraries, over 3 MB of heap that a server without HTTPS=1 would hold for nothing (issue 42).
 */
const loadSelfsigned = () => import("selfsigned");

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
  /**
   * A generated certificate is issued by this machine's own certificate authority (made once,
   * kept beside it): a phone that trusts it once (GET /blez-ca.crt) trusts every later
   * certificate, shows no warning, and lets the app install its service worker, which browsers
   * refuse to do on a certificate they only let through a warning.
   */
  ca?: { cert: string; fingerprint: string };
}

/** A generated server certificate lasts this long (browsers refuse server certificates valid for much longer). */
const VALID_DAYS = 397;
/** The local certificate authority lasts this long: the phone trusts it once. */
const CA_VALID_DAYS = 3650;
/** A generated certificate is replaced this long before it expires. */
const RENEW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Where the phone downloads the local certificate authority (served only with a generated certificate). */
export const CA_CERT_PATH = "/blez-ca.crt";

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
 * The certificate to serve HTTPS with: the given files, or one generated on the first start and
 * kept in `folder`, so a phone that accepted it once is not asked again. The generated one is
 * issued by a local certificate authority made once and kept beside it; the server certificate
 * is replaced (by the same authority) when it expires within RENEW_DAYS or no longer names one
 * of this machine's addresses (a new address on the shop's Wi-Fi).
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
  const ca = await localAuthority(options.folder, now);
  const caInfo = { cert: ca.cert, fingerprint: ca.x509.fingerprint256 };
  const certPath = join(options.folder, "cert.pem");
  const keyPath = join(options.folder, "key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, "utf8");
    const x509 = new X509Certificate(cert);
    if (stillGood(x509, names, now) && x509.checkIssued(ca.x509) && x509.verify(ca.x509.publicKey)) {
      return {
        key: readFileSync(keyPath, "utf8"),
        cert,
        source: "reused",
        fingerprint: x509.fingerprint256,
        folder: options.folder,
        validTo: x509.validTo,
        ca: caInfo,
      };
    }
  }
  const { generate } = await loadSelfsigned();
  const pems = await generate([{ name: "commonName", value: `Blez Inventory on ${hostname() || "this computer"}` }], {
    keyType: "rsa",
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * DAY_MS),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false, critical: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
      },
    ],
  });
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
    ca: caInfo,
  };
}

/** The local certificate authority in `folder` (ca.pem, ca-key.pem), made when missing or near its end. */
async function localAuthority(folder: string, now: Date): Promise<{ key: string; cert: string; x509: X509Certificate }> {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const certPath = join(folder, "ca.pem");
  const keyPath = join(folder, "ca-key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, "utf8");
    const x509 = new X509Certificate(cert);
    if (x509.ca && new Date(x509.validTo).getTime() - now.getTime() >= RENEW_DAYS * DAY_MS) {
      return { key: readFileSync(keyPath, "utf8"), cert, x509 };
    }
  }
  const { generate } = await loadSelfsigned();
  const pems = await generate([{ name: "commonName", value: `Blez Inventory local authority (${hostname() || "this computer"})` }], {
    keyType: "rsa",
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + CA_VALID_DAYS * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
  return { key: pems.private, cert: pems.cert, x509: new X509Certificate(pems.cert) };
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
