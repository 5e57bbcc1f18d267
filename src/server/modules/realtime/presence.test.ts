import { describe, expect, it } from "vitest";
import { presenceOf } from "./presence.js";

const sock = (id: string, user?: { id: number; username: string; role: "manager" | "streamer" }) => ({ id, data: { user } });

describe("presenceOf", () => {
  const alice = { id: 1, username: "alice", role: "manager" as const };
  const bob = { id: 2, username: "Bob", role: "streamer" as const };

  it("counts distinct users, not sockets, sorted by username, and ignores unauthenticated sockets", () => {
    const p = presenceOf([sock("a1", alice), sock("b1", bob), sock("a2", alice), sock("x")]);
    expect(p).toEqual({
      count: 2,
      users: [
        { username: "alice", role: "manager" },
        { username: "Bob", role: "streamer" },
      ],
      key: "1,2",
    });
  });

  it("leaves one socket out on request, keeping its user while another tab is open", () => {
    const sockets = [sock("a1", alice), sock("a2", alice), sock("b1", bob)];
    expect(presenceOf(sockets, "a1").key).toBe("1,2");
    expect(presenceOf(sockets, "b1")).toMatchObject({ count: 1, key: "1" });
    expect(presenceOf([])).toEqual({ count: 0, users: [], key: "" });
  });
});
