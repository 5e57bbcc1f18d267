import { describe, expect, it } from "vitest";
import { pushRecent, removeRecent } from "./recents";

describe("recent products", () => {
  it("puts the newest first, without duplicates, at most 5", () => {
    let list: string[] = [];
    for (const b of ["a", "b", "c", "d", "e", "f"]) list = pushRecent(list, b);
    expect(list).toEqual(["f", "e", "d", "c", "b"]);
    expect(pushRecent(list, "c")).toEqual(["c", "f", "e", "d", "b"]);
    expect(removeRecent(list, "d")).toEqual(["f", "e", "c", "b"]);
  });
});
