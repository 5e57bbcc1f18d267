import { describe, expect, it } from "vitest";
import { imageFiles, moveInOrder, roomFor } from "./photo-order";

describe("photo order", () => {
  it("moves one photo earlier or later, clamped to the ends", () => {
    expect(moveInOrder([1, 2, 3], 3, -1)).toEqual([1, 3, 2]);
    expect(moveInOrder([1, 2, 3], 1, 1)).toEqual([2, 1, 3]);
    expect(moveInOrder([1, 2, 3], 1, -1)).toEqual([1, 2, 3]);
    expect(moveInOrder([1, 2, 3], 3, 5)).toEqual([1, 2, 3]);
    expect(moveInOrder([1, 2, 3], 9, 1)).toEqual([1, 2, 3]);
  });

  it("keeps the image files of a pick, drop or paste, HEIC and AVIF by their names too", () => {
    const file = (name: string, type: string) => new File(["x"], name, { type });
    const files = [file("a.jpg", "image/jpeg"), file("notes.txt", "text/plain"), file("IMG_1.HEIC", ""), file("b.avif", "")];
    expect(imageFiles(files).map((f) => f.name)).toEqual(["a.jpg", "IMG_1.HEIC", "b.avif"]);
    expect(imageFiles(null)).toEqual([]);
  });

  it("leaves room for six photos a product", () => {
    expect(roomFor(0)).toBe(6);
    expect(roomFor(4)).toBe(2);
    expect(roomFor(7)).toBe(0);
  });
});
