import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Photo } from "../../../../contract/photos";
import { PhotoStage } from "./photo-stage";
import { PhotoThumb } from "./photo-thumb";

/** A photo whose file the server deleted (no product shows it any more): its URLs answer 404. */

const photo = (id: number): Photo => ({
  id,
  url: `/api/media/${String(id).padStart(64, "a")}.webp`,
  thumbnail_url: `/api/media/${String(id).padStart(64, "b")}.webp`,
  width: 400,
  height: 300,
});

describe("a photo that is no longer stored", () => {
  it("a thumbnail shows a placeholder icon instead of a broken image, and a picture again for another photo", () => {
    const { container, rerender } = render(<PhotoThumb photo={photo(1)} size={32} alt="" />);
    const image = container.querySelector("img");
    expect(image?.getAttribute("src")).toBe(photo(1).thumbnail_url);
    fireEvent.error(image as HTMLImageElement);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByTestId("photo-gone")).toBeTruthy();
    // The box keeps its size: nothing moves.
    expect(screen.getByTestId("photo-thumb").style.width).toBe("32px");

    rerender(<PhotoThumb photo={photo(2)} size={32} alt="" />);
    expect(container.querySelector("img")?.getAttribute("src")).toBe(photo(2).thumbnail_url);
    expect(screen.queryByTestId("photo-gone")).toBeNull();
  });

  it("a thumbnail with a text alternative keeps it on the placeholder", () => {
    const { container } = render(<PhotoThumb photo={photo(3)} size={64} alt="Prizm Hobby Box" />);
    fireEvent.error(container.querySelector("img") as HTMLImageElement);
    expect(screen.getByRole("img", { name: "Prizm Hobby Box" })).toBeTruthy();
  });

  it("the viewer says the photo is no longer stored, in a box of the photo's size", () => {
    const photos = [photo(4), photo(5)];
    const { rerender } = render(<PhotoStage photos={photos} index={0} onIndex={() => {}} name="Prizm Hobby Box" />);
    fireEvent.error(screen.getByTestId("photo-large"));
    const gone = screen.getByRole("img", { name: "Prizm Hobby Box, 1 of 2 (cover): no longer stored" });
    expect(gone.textContent).toContain("This photo is no longer stored");
    expect(gone.style.aspectRatio).toBe("400 / 300");
    // The next photo loads as usual.
    rerender(<PhotoStage photos={photos} index={1} onIndex={() => {}} name="Prizm Hobby Box" />);
    expect(screen.getByTestId("photo-large").getAttribute("src")).toBe(photo(5).url);
  });
});
