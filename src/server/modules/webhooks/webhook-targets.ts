import { type LookupAddress, lookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { WEBHOOK_FAILURES, WEBHOOK_MESSAGES } from "../../../contract/webhooks.js";
import { parseAllowedHost } from "../../config.js";

/**
 * Where a webhook may point. A manager's webhook is a request the shop's server makes for them:
 * pointed at this computer, the shop's network or a cloud's metadata service it would read or
 * probe what only the server can reach. So those addresses are refused, in every form a URL or a
 * name's resolution can give them (IPv4-mapped and the other IPv6 forms of an IPv4 address too),
 * unless WEBHOOK_ALLOWED_HOSTS allows them. Checked when a webhook is saved (an address or a
 * metadata name in its URL: 400) and when it is sent, on the address connected to.
 */

type Kind = "metadata" | "loopback" | "private" | "shared" | "unique-local" | "link-local" | "unspecified" | "tunnel";

const WHAT: Record<Kind, string> = {
  metadata: "a cloud metadata service",
  loopback: "this computer",
  private: "a private network address",
  shared: "a carrier-grade NAT address",
  "unique-local": "a unique-local address",
  "link-local": "a link-local address",
  unspecified: "an unspecified address",
  tunnel: "a Teredo tunnel address",
};

/** The clouds' metadata services (a first match wins: before the ranges that hold most of them). */
const METADATA_V4 = [
  "169.254.169.254", // AWS, Google Cloud, Azure, OpenStack, DigitalOcean, Oracle, Hetzner, ...
  "169.254.170.2", // AWS ECS task metadata
  "169.254.0.23", // Tencent Cloud
  "100.100.100.200", // Alibaba Cloud
  "168.63.129.16", // Azure's host (WireServer), a public address
  "192.0.0.192", // Oracle Cloud (classic)
];
const METADATA_V6 = [
  "fd00:ec2::254", // AWS (IPv6)
  "fd20:ce::254", // Google Cloud (IPv6)
];
/** Names of metadata services, refused whatever they resolve to (a URL naming one is refused when saved). */
const METADATA_NAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
]);

const RANGES_V4: Array<[Kind, string, number]> = [
  ["unspecified", "0.0.0.0", 8],
  ["loopback", "127.0.0.0", 8],
  ["private", "10.0.0.0", 8],
  ["private", "172.16.0.0", 12],
  ["private", "192.168.0.0", 16],
  ["shared", "100.64.0.0", 10],
  ["link-local", "169.254.0.0", 16],
];
const RANGES_V6: Array<[Kind, string, number]> = [
  ["unspecified", "::", 128],
  ["loopback", "::1", 128],
  ["unique-local", "fc00::", 7],
  ["link-local", "fe80::", 10],
  // Local-use NAT64 (RFC 8215): addresses of the shop's own translator.
  ["private", "64:ff9b:1::", 48],
  // Teredo hides its IPv4 address (XORed in the last 32 bits): no range can tell a local one.
  ["tunnel", "2001::", 32],
];

/**
 * The IPv6 forms of an IPv4 range other than IPv4-mapped (::ffff:a.b.c.d, which BlockList matches
 * by itself): IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
 */
function ipv6FormsOf(address: string, prefix: number): Array<[string, number]> {
  const [a = 0, b = 0, c = 0, d = 0] = address.split(".").map(Number);
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  return [
    [`::${address}`, 96 + prefix],
    [`64:ff9b::${address}`, 96 + prefix],
    [`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix],
  ];
}

/** One BlockList per kind, checked in this order: metadata first (most are in the ranges), ::1 before the ::/104 of 0.0.0.0/8. */
const REFUSED: Array<[Kind, BlockList]> = (() => {
  const order: Kind[] = ["metadata", "loopback", "link-local", "private", "shared", "unique-local", "tunnel", "unspecified"];
  const lists = new Map(order.map((kind) => [kind, new BlockList()]));
  const list = (kind: Kind) => lists.get(kind) as BlockList;
  const addV4 = (kind: Kind, address: string, prefix: number) => {
    list(kind).addSubnet(address, prefix, "ipv4");
    for (const [form, bits] of ipv6FormsOf(address, prefix)) list(kind).addSubnet(form, bits, "ipv6");
  };
  for (const address of METADATA_V4) addV4("metadata", address, 32);
  for (const address of METADATA_V6) list("metadata").addAddress(address, "ipv6");
  for (const [kind, address, prefix] of RANGES_V4) addV4(kind, address, prefix);
  for (const [kind, address, prefix] of RANGES_V6) list(kind).addSubnet(address, prefix, "ipv6");
  return [...lists];
})();

const familyOf = (address: string) => (isIP(address) === 4 ? "ipv4" : "ipv6");

/** What kind of refused address `address` (an IP) is, or null for an address on the internet. */
export function refusedKind(address: string): Kind | null {
  const family = familyOf(address);
  return REFUSED.find(([, list]) => list.check(address, family))?.[0] ?? null;
}

/** A URL's host as compared: without IPv6 brackets and a final dot (URLs are lowercase and punycode already). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
}

/** The refused targets, less what WEBHOOK_ALLOWED_HOSTS allows. */
export class WebhookTargets {
  private readonly names = new Set<string>();
  private readonly ranges = new BlockList();

  constructor(allowedHosts: readonly string[]) {
    for (const entry of allowedHosts) {
      const allowed = parseAllowedHost(entry);
      if (!allowed) throw new Error(`WEBHOOK_ALLOWED_HOSTS: ${JSON.stringify(entry)} is not a host name or CIDR range`);
      if ("name" in allowed) this.names.add(allowed.name);
      else this.ranges.addSubnet(allowed.address, allowed.prefix, allowed.family);
    }
  }

  /**
   * Is connecting to `address` for a URL whose host is `host` refused? An address allowed by a
   * range is allowed; an allowed name may resolve to any address but a metadata service's (allow
   * that by its address, if ever).
   */
  refusal(host: string, address: string): Kind | null {
    const kind = refusedKind(address);
    if (kind === null || this.ranges.check(address, familyOf(address))) return null;
    if (this.names.has(host) && kind !== "metadata") return null;
    return kind;
  }

  /** Is the host name itself refused (a metadata service's name), before any lookup? */
  nameRefused(host: string): boolean {
    return METADATA_NAMES.has(host) && !this.names.has(host);
  }

  /**
   * Why a webhook URL is refused when it is saved, or null: the address it names, or a metadata
   * service's name. Any other name is checked when a delivery is sent, on what it resolves to then.
   */
  urlProblem(raw: string): string | null {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return WEBHOOK_MESSAGES.urlInvalid;
    }
    const host = hostOf(url);
    if (isIP(host) === 0) return this.nameRefused(host) ? WEBHOOK_MESSAGES.metadataRefused(host) : null;
    const kind = this.refusal(host, host);
    if (kind === null) return null;
    return kind === "metadata" ? WEBHOOK_MESSAGES.metadataRefused(host) : WEBHOOK_MESSAGES.addressRefused(WHAT[kind], host);
  }
}

/** The code of our own refusal of a resolved address. */
export const NOT_ALLOWED = "EWEBHOOKTARGET";

/**
 * Name resolution that refuses what WebhookTargets refuses (this computer, private networks,
 * metadata services, ...): checked on the addresses the connection is made to, at send time, so
 * a name that resolves there later (or differently for us than when the webhook was saved) is
 * refused too. One refused address refuses the name. Webhook deliveries and price feeds fetched
 * from their URL both connect through it.
 */
export function guardedLookup(targets: WebhookTargets): LookupFunction {
  return (hostname, options, callback) => {
    lookup(
      hostname,
      { family: options.family, hints: options.hints, all: true },
      (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (err) return callback(err, "", 0);
        const host = hostname.toLowerCase().replace(/\.$/, "");
        if (addresses.some((a) => targets.refusal(host, a.address) !== null)) {
          return callback(Object.assign(new Error(WEBHOOK_FAILURES.notAllowed), { code: NOT_ALLOWED }), "", 0);
        }
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(WEBHOOK_FAILURES.nameNotFound), { code: "ENOTFOUND" }), "", 0);
        callback(null, first.address, first.family);
      },
    );
  };
}
