import { describe, expect, it } from "vitest";
import { type BuySettings, buySettingsSchema, DEFAULT_BUY_SETTINGS, offerFor } from "./counter.js";

const product = { id: 7, vendor: "Wizards", set_name: "Alpha", quantity_on_hand: 2, buy_limit: null };
const settings = (s: Partial<BuySettings>): BuySettings => ({ ...DEFAULT_BUY_SETTINGS, cash_percent: 50, credit_percent: 70, ...s });

describe("offerFor", () => {
  it("offers market x the shop's percents, rounded down to the cent", () => {
    expect(offerFor(product, 999, settings({}))).toMatchObject({ cash: 499, credit: 699, wanted: null, darklisted: false, note: null });
  });

  it("takes the first override that matches every field it names", () => {
    const overrides = [
      { vendor: "Wizards", set_name: "Beta", cash_percent: 10, credit_percent: 10 },
      { set_name: "Alpha", cash_percent: 60, credit_percent: 80 },
      { vendor: "Wizards", cash_percent: 20, credit_percent: 20 },
    ];
    expect(offerFor(product, 1000, settings({ overrides }))).toMatchObject({ cash: 600, credit: 800, note: "Override Alpha" });
  });

  it("pays the hotlist's percents where they are higher, and nothing for the darklist or without a market price", () => {
    const hot = settings({ hotlist: [7], hotlist_cash_percent: 40, hotlist_credit_percent: 90 });
    expect(offerFor(product, 1000, hot)).toMatchObject({ cash: 500, credit: 900, note: "Hotlist" });
    expect(offerFor(product, 1000, settings({ darklist: [7] }))).toMatchObject({ cash: 0, credit: 0, darklisted: true });
    expect(offerFor(product, null, settings({}))).toMatchObject({ cash: 0, credit: 0, darklisted: false });
  });

  it("wants the buy limit less the stock, never below 0", () => {
    expect(offerFor({ ...product, buy_limit: 5 }, 1000, settings({})).wanted).toBe(3);
    expect(offerFor({ ...product, buy_limit: 1 }, 1000, settings({})).wanted).toBe(0);
  });

  it("settings: an override names a vendor or a set; percents are whole numbers from 0 to 200", () => {
    expect(
      buySettingsSchema.safeParse({ cash_percent: 50, credit_percent: 70, overrides: [{ cash_percent: 1, credit_percent: 1 }] }).success,
    ).toBe(false);
    expect(buySettingsSchema.safeParse({ cash_percent: 50.5, credit_percent: 70 }).success).toBe(false);
    expect(buySettingsSchema.safeParse({ cash_percent: 201, credit_percent: 70 }).success).toBe(false);
    expect(buySettingsSchema.parse({ cash_percent: 50, credit_percent: 70 })).toEqual(settings({}));
  });
});
