import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("TRUST_PROXY", () => {
  const trust = (value: string | undefined) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;

  it("is off unless set", () => {
    for (const value of [undefined, "", "0", "false", "no", "off"]) expect(trust(value), String(value)).toBe(false);
  });

  it("takes a number of proxy hops; true, yes and on mean one hop", () => {
    expect(trust("1")).toBe(1);
    expect(trust("2")).toBe(2);
    for (const value of ["true", "yes", "on", "TRUE"]) expect(trust(value), value).toBe(1);
  });

  it("takes a list of proxy addresses and CIDR ranges", () => {
    expect(trust("127.0.0.1")).toEqual(["127.0.0.1"]);
    expect(trust("10.0.0.5, 10.1.0.0/16,::1,fd00::/8")).toEqual(["10.0.0.5", "10.1.0.0/16", "::1", "fd00::/8"]);
  });

  it("refuses anything else, never trusting everyone", () => {
    for (const value of ["*", "all", "everyone", "10.0.0.0/33", "example.com", "1.2.3", "-1"]) {
      expect(() => trust(value), value).toThrow(/TRUST_PROXY: expected a number of proxy hops/);
    }
  });
});
