import { networkInterfaces } from "node:os";

export interface LanAddress {
  address: string;
  family: "IPv4" | "IPv6";
  interface: string;
}

/**
 * This machine's addresses other devices on its networks can reach: IPv4 first, then global
 * IPv6; loopback, link-local (fe80::, 169.254.x) and interfaces that are down are left out.
 */
export function lanAddresses(interfaces = networkInterfaces()): LanAddress[] {
  const found: LanAddress[] = [];
  for (const [name, list] of Object.entries(interfaces)) {
    for (const info of list ?? []) {
      if (info.internal) continue;
      if (info.family === "IPv4" && !info.address.startsWith("169.254.")) {
        found.push({ address: info.address, family: "IPv4", interface: name });
      } else if (info.family === "IPv6" && !/^fe[89ab]/i.test(info.address)) {
        found.push({ address: info.address, family: "IPv6", interface: name });
      }
    }
  }
  return found.sort((a, b) => (a.family === b.family ? 0 : a.family === "IPv4" ? -1 : 1));
}

/** A URL for `address` (IPv6 in brackets). */
export function urlOf(protocol: "http" | "https", address: string, port: number): string {
  return `${protocol}://${address.includes(":") ? `[${address}]` : address}:${port}`;
}

/**
 * The addresses the server can be opened at, given where it listens: every LAN address when it
 * listens on all of them (0.0.0.0 or ::; IPv6 ones only for ::), else the one it was given.
 */
export function listeningUrls(opts: { host: string; port: number; https: boolean; interfaces?: ReturnType<typeof networkInterfaces> }): {
  local: string;
  lan: string[];
} {
  const protocol = opts.https ? "https" : "http";
  const everywhere = opts.host === "0.0.0.0" || opts.host === "::";
  if (!everywhere) {
    const loopback = opts.host === "127.0.0.1" || opts.host === "::1" || opts.host === "localhost";
    return {
      local: urlOf(protocol, loopback ? "localhost" : opts.host, opts.port),
      lan: loopback ? [] : [urlOf(protocol, opts.host, opts.port)],
    };
  }
  const lan = lanAddresses(opts.interfaces)
    .filter((a) => a.family === "IPv4" || opts.host === "::")
    .map((a) => urlOf(protocol, a.address, opts.port));
  return { local: urlOf(protocol, "localhost", opts.port), lan: [...new Set(lan)] };
}
