import { useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { BUY_PERCENT_MAX, type BuyLimit, type BuySettings, type BuySettingsBody } from "../../../../contract/counter";
import { canManageIntegrations } from "../../../../contract/permissions";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { FieldError, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { useCatalogue } from "../../products";
import { counterKeys, saveBuyLimit, saveBuySettings, useBuySettings } from "../api/counter-api";

const PICK_RESULTS = 8;

interface OverrideRow {
  key: number;
  vendor: string;
  set_name: string;
  cash: string;
  credit: string;
}

/** The settings as typed: percents and limits as text until they are saved. */
interface Form {
  cash: string;
  credit: string;
  overrides: OverrideRow[];
  hotCash: string;
  hotCredit: string;
  hotlist: number[];
  darklist: number[];
  limits: Array<{ product_id: number; limit: string }>;
}

let nextKey = 1;
function formOf(settings: BuySettings, limits: BuyLimit[]): Form {
  return {
    cash: String(settings.cash_percent),
    credit: String(settings.credit_percent),
    overrides: settings.overrides.map((o) => ({
      key: nextKey++,
      vendor: o.vendor ?? "",
      set_name: o.set_name ?? "",
      cash: String(o.cash_percent),
      credit: String(o.credit_percent),
    })),
    hotCash: String(settings.hotlist_cash_percent),
    hotCredit: String(settings.hotlist_credit_percent),
    hotlist: settings.hotlist,
    darklist: settings.darklist,
    limits: limits.filter((l) => l.buy_limit !== null).map((l) => ({ product_id: l.product_id, limit: String(l.buy_limit) })),
  };
}

export const PERCENT_ERROR = `A whole percent from 0 to ${BUY_PERCENT_MAX}`;
export const LIMIT_ERROR = "A whole number of 0 or more";
const percentOf = (text: string): number | null => {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n <= BUY_PERCENT_MAX ? n : null;
};
const limitOf = (text: string): number | null => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : null);

/**
 * The shop's buy settings, from the Counter: cash % and credit %, overrides per vendor or set, the
 * hotlist (cards with higher percents), the darklist (never bought) and buy limits per card.
 * Managers and super_admin change them (PUT /api/buy-settings, /limits/{id}); inventory users see
 * them read-only.
 */
export function BuySettingsDialog({ onClose }: { onClose: () => void }) {
  const { user } = useAuth();
  const canEdit = user ? canManageIntegrations(user.role) : false;
  const query = useBuySettings();
  const formId = useId();
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      title="Buy settings"
      description={
        canEdit
          ? "What the counter and the online buylist offer: a share of the market price, per card."
          : "What the counter and the online buylist offer. Only managers change these."
      }
      size="lg"
      busy={saving}
      onClose={onClose}
      footer={
        canEdit && query.data ? (
          <>
            <Button variant="outline" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" form={formId} disabled={saving}>
              {saving ? <Spinner label="Saving" /> : null}
              Save buy settings
            </Button>
          </>
        ) : (
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        )
      }
    >
      {query.isPending ? (
        <p className="flex items-center gap-2">
          <Spinner label="Loading buy settings" /> Loading buy settings...
        </p>
      ) : query.isError ? (
        <div role="alert" className="flex flex-col items-start gap-2">
          <p className="font-medium text-red-800 dark:text-red-200">{loadErrorText(query.error)}</p>
          <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <BuySettingsForm
          id={formId}
          initial={formOf(query.data.settings, query.data.limits)}
          limits={query.data.limits}
          canEdit={canEdit}
          onSaving={setSaving}
          onSaved={onClose}
        />
      )}
    </Dialog>
  );
}

type Errors = Record<string, string>;

function BuySettingsForm({
  id,
  initial,
  limits,
  canEdit,
  onSaving,
  onSaved,
}: {
  id: string;
  initial: Form;
  limits: BuyLimit[];
  canEdit: boolean;
  onSaving: (saving: boolean) => void;
  onSaved: () => void;
}) {
  const client = useQueryClient();
  const [form, setForm] = useState<Form>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [failed, setFailed] = useState<string | null>(null);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const setOverride = (key: number, patch: Partial<OverrideRow>) =>
    set({ overrides: form.overrides.map((o) => (o.key === key ? { ...o, ...patch } : o)) });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canEdit) return;
    const found: Errors = {};
    const pct = (field: string, text: string) => {
      const n = percentOf(text);
      if (n === null) found[field] = PERCENT_ERROR;
      return n ?? 0;
    };
    const body: BuySettingsBody = {
      cash_percent: pct("cash", form.cash),
      credit_percent: pct("credit", form.credit),
      overrides: form.overrides.map((o) => {
        if (!o.vendor.trim() && !o.set_name.trim()) found[`override-${o.key}`] = "An override needs a vendor or a set to match";
        return {
          vendor: o.vendor.trim() || null,
          set_name: o.set_name.trim() || null,
          cash_percent: pct(`override-${o.key}-cash`, o.cash),
          credit_percent: pct(`override-${o.key}-credit`, o.credit),
        };
      }),
      hotlist: form.hotlist,
      hotlist_cash_percent: pct("hotCash", form.hotCash),
      hotlist_credit_percent: pct("hotCredit", form.hotCredit),
      darklist: form.darklist,
    };
    const limitChanges: Array<{ product_id: number; limit: number | null }> = [];
    for (const l of form.limits) {
      const n = limitOf(l.limit);
      if (n === null) found[`limit-${l.product_id}`] = LIMIT_ERROR;
      else if (limits.find((x) => x.product_id === l.product_id)?.buy_limit !== n)
        limitChanges.push({ product_id: l.product_id, limit: n });
    }
    for (const l of limits) {
      if (l.buy_limit !== null && !form.limits.some((x) => x.product_id === l.product_id)) {
        limitChanges.push({ product_id: l.product_id, limit: null });
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailed("Some fields need fixing: see the messages below them.");
      return;
    }
    setFailed(null);
    onSaving(true);
    try {
      await saveBuySettings(body);
      for (const change of limitChanges) await saveBuyLimit(change.product_id, change.limit);
      notify.success("Buy settings saved");
      onSaved();
    } catch (err) {
      setFailed(messageOr(err, "The buy settings could not be saved"));
    } finally {
      onSaving(false);
      void client.invalidateQueries({ queryKey: counterKeys.buySettings });
    }
  };

  const percentField = (label: string, field: string, value: string, onChange: (v: string) => void) => (
    <TextField
      label={label}
      inputMode="numeric"
      value={value}
      readOnly={!canEdit}
      error={errors[field]}
      onChange={(e) => onChange(e.target.value)}
      fieldClassName="w-36"
    />
  );

  return (
    <form id={id} noValidate onSubmit={submit} className="flex flex-col gap-5" aria-label="Buy settings">
      {failed ? (
        <p role="alert" className="font-medium text-red-800 dark:text-red-200">
          {failed}
        </p>
      ) : null}
      <section aria-labelledby={`${id}-shop`} className="flex flex-col gap-2">
        <h3 id={`${id}-shop`} className="font-semibold">
          The shop's offer
        </h3>
        <div className="flex flex-wrap gap-3">
          {percentField("Cash %", "cash", form.cash, (v) => set({ cash: v }))}
          {percentField("Credit %", "credit", form.credit, (v) => set({ credit: v }))}
        </div>
      </section>

      <section aria-labelledby={`${id}-overrides`} className="flex flex-col gap-2">
        <h3 id={`${id}-overrides`} className="font-semibold">
          Overrides per vendor or set
        </h3>
        <p className="text-sm text-gray-700 dark:text-gray-300">The first override matching a card's vendor and set sets its percents.</p>
        {form.overrides.length === 0 ? <p className="text-sm">No overrides.</p> : null}
        <ul className="flex flex-col gap-3" aria-label="Overrides">
          {form.overrides.map((o, index) => (
            <li key={o.key} className="flex flex-col gap-1 rounded-lg border border-gray-200 p-2 dark:border-gray-700">
              <div className="flex flex-wrap items-end gap-2">
                <TextField
                  label={`Vendor of override ${index + 1}`}
                  value={o.vendor}
                  readOnly={!canEdit}
                  onChange={(e) => setOverride(o.key, { vendor: e.target.value })}
                  fieldClassName="min-w-32 flex-1"
                />
                <TextField
                  label={`Set of override ${index + 1}`}
                  value={o.set_name}
                  readOnly={!canEdit}
                  onChange={(e) => setOverride(o.key, { set_name: e.target.value })}
                  fieldClassName="min-w-32 flex-1"
                />
                {percentField(`Cash % of override ${index + 1}`, `override-${o.key}-cash`, o.cash, (v) => setOverride(o.key, { cash: v }))}
                {percentField(`Credit % of override ${index + 1}`, `override-${o.key}-credit`, o.credit, (v) =>
                  setOverride(o.key, { credit: v }),
                )}
                {canEdit ? (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove override ${index + 1}`}
                    onClick={() => set({ overrides: form.overrides.filter((x) => x.key !== o.key) })}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                ) : null}
              </div>
              <FieldError>{errors[`override-${o.key}`]}</FieldError>
            </li>
          ))}
        </ul>
        {canEdit ? (
          <div>
            <Button
              variant="outline"
              size="sm"
              onClick={() =>
                set({ overrides: [...form.overrides, { key: nextKey++, vendor: "", set_name: "", cash: form.cash, credit: form.credit }] })
              }
            >
              <Plus aria-hidden="true" className="size-4" /> Add an override
            </Button>
          </div>
        ) : null}
      </section>

      <section aria-labelledby={`${id}-hot`} className="flex flex-col gap-2">
        <h3 id={`${id}-hot`} className="font-semibold">
          Hotlist
        </h3>
        <p className="text-sm text-gray-700 dark:text-gray-300">Cards the shop wants most: offered at these percents when higher.</p>
        <div className="flex flex-wrap gap-3">
          {percentField("Hotlist cash %", "hotCash", form.hotCash, (v) => set({ hotCash: v }))}
          {percentField("Hotlist credit %", "hotCredit", form.hotCredit, (v) => set({ hotCredit: v }))}
        </div>
        <ProductList
          label="Hotlist"
          ids={form.hotlist}
          canEdit={canEdit}
          onRemove={(pid) => set({ hotlist: form.hotlist.filter((x) => x !== pid) })}
        />
        {canEdit ? (
          <ProductAdder
            label="Add a card to the hotlist"
            exclude={form.hotlist}
            onAdd={(pid) => set({ hotlist: [...form.hotlist, pid] })}
          />
        ) : null}
      </section>

      <section aria-labelledby={`${id}-dark`} className="flex flex-col gap-2">
        <h3 id={`${id}-dark`} className="font-semibold">
          Darklist
        </h3>
        <p className="text-sm text-gray-700 dark:text-gray-300">Cards the shop never buys: struck at the counter, not on the buylist.</p>
        <ProductList
          label="Darklist"
          ids={form.darklist}
          canEdit={canEdit}
          onRemove={(pid) => set({ darklist: form.darklist.filter((x) => x !== pid) })}
        />
        {canEdit ? (
          <ProductAdder
            label="Add a card to the darklist"
            exclude={form.darklist}
            onAdd={(pid) => set({ darklist: [...form.darklist, pid] })}
          />
        ) : null}
      </section>

      <section aria-labelledby={`${id}-limits`} className="flex flex-col gap-2">
        <h3 id={`${id}-limits`} className="font-semibold">
          Buy limits
        </h3>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          How many of a card the shop wants on hand: it buys up to that less the stock. Only cards with a limit are on the online buylist.
        </p>
        {form.limits.length === 0 ? <p className="text-sm">No buy limits.</p> : null}
        <ul className="flex flex-col gap-2" aria-label="Buy limits">
          {form.limits.map((l) => (
            <LimitRow
              key={l.product_id}
              productId={l.product_id}
              value={l.limit}
              error={errors[`limit-${l.product_id}`]}
              canEdit={canEdit}
              onChange={(v) => set({ limits: form.limits.map((x) => (x.product_id === l.product_id ? { ...x, limit: v } : x)) })}
              onRemove={() => set({ limits: form.limits.filter((x) => x.product_id !== l.product_id) })}
            />
          ))}
        </ul>
        {canEdit ? (
          <ProductAdder
            label="Add a buy limit for a card"
            exclude={form.limits.map((l) => l.product_id)}
            onAdd={(pid) => set({ limits: [...form.limits, { product_id: pid, limit: "1" }] })}
          />
        ) : null}
      </section>
    </form>
  );
}

function useProductName() {
  const { store } = useCatalogue();
  return (id: number) => store.get(id)?.product_name ?? `Product #${id}`;
}

function ProductList({
  label,
  ids,
  canEdit,
  onRemove,
}: {
  label: string;
  ids: number[];
  canEdit: boolean;
  onRemove: (id: number) => void;
}) {
  const nameOf = useProductName();
  if (ids.length === 0) return <p className="text-sm">No cards on the {label.toLowerCase()}.</p>;
  return (
    <ul aria-label={label} className="flex flex-col gap-1">
      {ids.map((pid) => (
        <li key={pid} className="flex items-center justify-between gap-2 rounded-lg border border-gray-200 px-2 py-1 dark:border-gray-700">
          <span className="break-words">{nameOf(pid)}</span>
          {canEdit ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove ${nameOf(pid)} from the ${label.toLowerCase()}`}
              onClick={() => onRemove(pid)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function LimitRow({
  productId,
  value,
  error,
  canEdit,
  onChange,
  onRemove,
}: {
  productId: number;
  value: string;
  error: string | undefined;
  canEdit: boolean;
  onChange: (v: string) => void;
  onRemove: () => void;
}) {
  const nameOf = useProductName();
  const name = nameOf(productId);
  return (
    <li className="flex flex-wrap items-end justify-between gap-2 rounded-lg border border-gray-200 p-2 dark:border-gray-700">
      <span className="min-w-0 break-words">{name}</span>
      <div className="flex items-end gap-2">
        <TextField
          label={`Buy limit of ${name}`}
          inputMode="numeric"
          value={value}
          readOnly={!canEdit}
          error={error}
          onChange={(e) => onChange(e.target.value)}
          fieldClassName="w-40"
        />
        {canEdit ? (
          <Button variant="ghost" size="icon" aria-label={`Remove the buy limit of ${name}`} onClick={onRemove}>
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** Finds a card of the catalogue by name or barcode and adds it to a list. */
function ProductAdder({ label, exclude, onAdd }: { label: string; exclude: number[]; onAdd: (id: number) => void }) {
  const { store, pending } = useCatalogue();
  const [q, setQ] = useState("");
  const needle = q.trim().toLowerCase();
  const found: Array<{ id: number; name: string }> = [];
  if (needle) {
    for (let i = 0; i < store.slotCount() && found.length < PICK_RESULTS; i++) {
      const p = store.at(i);
      if (exclude.includes(p.id)) continue;
      if (p.product_name.toLowerCase().includes(needle) || p.barcode === q.trim()) found.push({ id: p.id, name: p.product_name });
    }
  }
  return (
    <div className="flex flex-col gap-1">
      <TextField label={label} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Card name or barcode" />
      {needle ? (
        found.length === 0 ? (
          <p className="text-sm" aria-live="polite">
            {pending ? "The catalogue is still loading..." : `No card matches "${q.trim()}".`}
          </p>
        ) : (
          <ul aria-label={`${label}: cards found`} className="flex flex-col gap-1">
            {found.map((p) => (
              <li key={p.id}>
                <Button
                  variant="outline"
                  size="sm"
                  className="h-auto min-h-8 text-left"
                  onClick={() => {
                    onAdd(p.id);
                    setQ("");
                  }}
                >
                  <Plus aria-hidden="true" className="size-4 shrink-0" /> {p.name}
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
