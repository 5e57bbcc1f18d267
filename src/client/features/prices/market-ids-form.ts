// The market ids in the Edit Product dialog: the inputs as text, and the body they make, checked by the contract's schema.
import { z } from "zod";
import { FINISHES, type Finish } from "../../../contract/market";
import { type MarketIds, marketIdsSchema } from "../../../contract/prices";

export interface MarketIdsFormValues {
  tcgplayer_product_id: string;
  scryfall_id: string;
  pokemontcg_id: string;
  finish: Finish;
}

export type MarketIdsBody = Pick<MarketIds, keyof MarketIdsFormValues>;

export const TCGPLAYER_ID_MESSAGE = "A TCGplayer id is a whole number, like 284137";

export function marketIdsFormValuesOf(ids: MarketIds): MarketIdsFormValues {
  return {
    tcgplayer_product_id: ids.tcgplayer_product_id === null ? "" : String(ids.tcgplayer_product_id),
    scryfall_id: ids.scryfall_id ?? "",
    pokemontcg_id: ids.pokemontcg_id ?? "",
    finish: ids.finish,
  };
}

const bodySchema = marketIdsSchema.pick({ tcgplayer_product_id: true, scryfall_id: true, pokemontcg_id: true, finish: true });

/** Blank is no id (null). */
export const marketIdsFormSchema = z
  .object({ tcgplayer_product_id: z.string(), scryfall_id: z.string(), pokemontcg_id: z.string(), finish: z.enum(FINISHES) })
  .transform((v, ctx): MarketIdsBody => {
    const tcgplayer = v.tcgplayer_product_id.trim();
    if (tcgplayer !== "" && !/^\d+$/.test(tcgplayer)) {
      ctx.addIssue({ code: "custom", message: TCGPLAYER_ID_MESSAGE, path: ["tcgplayer_product_id"] });
      return z.NEVER;
    }
    const body = bodySchema.safeParse({
      tcgplayer_product_id: tcgplayer === "" ? null : Number(tcgplayer),
      scryfall_id: v.scryfall_id.trim() || null,
      pokemontcg_id: v.pokemontcg_id.trim() || null,
      finish: v.finish,
    });
    if (body.success) return body.data;
    for (const issue of body.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
