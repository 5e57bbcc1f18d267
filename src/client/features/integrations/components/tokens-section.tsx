import { Check, Copy, KeyRound, RefreshCw } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { ORDER_CHANNEL_MAX } from "../../../../contract/order-rules";
import { ROLE_LABELS } from "../../../../contract/permissions";
import {
  TOKEN_CHANNELS_MAX,
  TOKEN_MESSAGES,
  TOKEN_NAME_MAX,
  TOKEN_SCOPE_LABELS,
  TOKEN_SCOPES,
  TOKEN_STATE_LABELS,
  type TokenScope,
  type TokenState,
} from "../../../../contract/token-rules";
import type { ApiToken, CreatedToken, CreateTokenBody } from "../../../../contract/tokens";
import { Badge, type BadgeVariant } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { FieldError, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { notify } from "../../notifications";
import { useCreateToken } from "../api/create-token";
import { useTokens } from "../api/list-tokens";
import { useRevokeToken } from "../api/revoke-token";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "Never");

const STATE_BADGES: Record<TokenState, BadgeVariant> = {
  active: "success",
  limited: "warning",
  maker_disabled: "danger",
  revoked: "danger",
};

/** The channels field as typed (comma-separated) as a list, and what is wrong with it, if anything. */
function readChannels(text: string): { channels: string[]; problem: string | null } {
  const channels = [...new Set(text.split(",").map((c) => c.trim()))].filter(Boolean);
  if (channels.some((c) => c.length > ORDER_CHANNEL_MAX))
    return { channels, problem: `Each channel is at most ${ORDER_CHANNEL_MAX} characters` };
  if (channels.length > TOKEN_CHANNELS_MAX) return { channels, problem: TOKEN_MESSAGES.tooManyChannels };
  return { channels, problem: null };
}

/** API tokens: create one (its secret shown once, with a copy button), the list, revoke with confirmation. */
export function TokensSection() {
  const tokens = useTokens();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  return (
    <section aria-labelledby="tokens-title" className="flex flex-col gap-3">
      <div>
        <h2 id="tokens-title" className="flex items-center gap-2 text-xl font-bold">
          <KeyRound aria-hidden="true" className="h-5 w-5 text-blue-700 dark:text-blue-400" />
          API tokens
        </h2>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          A script or another sales channel sends a token as <code>Authorization: Bearer &lt;secret&gt;</code>. Its changes are audited
          under its name.
        </p>
      </div>
      <CreateTokenForm onCreated={setCreated} />
      {created ? <SecretOnce created={created} onDone={() => setCreated(null)} /> : null}
      {tokens.isPending ? (
        <div className="flex items-center gap-3 p-4">
          <Spinner label="Loading tokens" />
          <p>Loading tokens...</p>
        </div>
      ) : tokens.isError ? (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(tokens.error)}
          </p>
          <Button variant="outline" onClick={() => void tokens.refetch()}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : tokens.data.length === 0 ? (
        <p className="text-gray-700 dark:text-gray-300">No API tokens yet.</p>
      ) : (
        <ul aria-label="API tokens" className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {tokens.data.map((token) => (
            <li key={token.id}>
              <TokenCard token={token} onRevoke={() => setRevoking(token)} />
            </li>
          ))}
        </ul>
      )}
      {revoking ? <RevokeDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </section>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const id = useId();
  const create = useCreateToken();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<TokenScope[]>([]);
  const [channelsText, setChannelsText] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [scopesError, setScopesError] = useState<string | null>(null);
  const [channelsError, setChannelsError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  // Channels limit orders only: the field is there while orders:write is chosen.
  const ordersChosen = scopes.includes("orders:write");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const nameProblem = trimmed ? null : TOKEN_MESSAGES.nameRequired;
    const scopesProblem = scopes.length > 0 ? null : TOKEN_MESSAGES.scopesRequired;
    const { channels, problem: channelsProblem } = ordersChosen ? readChannels(channelsText) : { channels: [], problem: null };
    setNameError(nameProblem);
    setScopesError(scopesProblem);
    setChannelsError(channelsProblem);
    if (nameProblem || scopesProblem || channelsProblem) return;
    const body: CreateTokenBody = channels.length > 0 ? { name: trimmed, scopes, channels } : { name: trimmed, scopes };
    create.mutate(body, {
      onSuccess: (answer) => {
        setName("");
        setScopes([]);
        setChannelsText("");
        onCreated(answer);
      },
      onError: (err) => setServerError(messageOr(err, "Failed to create token")),
    });
  };
  const toggle = (scope: TokenScope, on: boolean) => {
    setScopesError(null);
    setServerError(null);
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  };

  return (
    <Card className="p-4">
      <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Create an API token" noValidate>
        <TextField
          label="Token name"
          value={name}
          maxLength={TOKEN_NAME_MAX}
          placeholder="e.g. eBay sync"
          error={nameError}
          disabled={create.isPending}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
            setServerError(null);
          }}
        />
        <fieldset className="flex flex-col gap-1.5" aria-describedby={scopesError ? `${id}-scopes-error` : undefined}>
          <legend className="mb-1 text-sm font-medium text-gray-800 dark:text-gray-100">Scopes</legend>
          {TOKEN_SCOPES.map((scope) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4"
                checked={scopes.includes(scope)}
                disabled={create.isPending}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              <span>
                <code className="font-semibold">{scope}</code>{" "}
                <span className="text-gray-700 dark:text-gray-300">{TOKEN_SCOPE_LABELS[scope]}</span>
              </span>
            </label>
          ))}
          <FieldError id={`${id}-scopes-error`}>{scopesError}</FieldError>
        </fieldset>
        {ordersChosen ? (
          <TextField
            label="Order channels (optional)"
            value={channelsText}
            placeholder="e.g. ebay, web"
            hint="Comma-separated. The token then places, cancels and reads orders of these channels only; left empty, every channel."
            error={channelsError}
            disabled={create.isPending}
            onChange={(e) => {
              setChannelsText(e.target.value);
              setChannelsError(null);
              setServerError(null);
            }}
          />
        ) : null}
        <FieldError>{serverError}</FieldError>
        <div>
          <Button type="submit" disabled={create.isPending} className="w-full sm:w-auto">
            <KeyRound aria-hidden="true" className="h-4 w-4" />
            {create.isPending ? "Creating..." : "Create token"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The new token's secret: shown this once, with a copy button; gone once dismissed. */
function SecretOnce({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
      notify.success("Secret copied");
    } catch {
      // No clipboard (not a secure context): select it for the user to copy.
      const input = document.getElementById(`${id}-secret`) as HTMLInputElement | null;
      input?.select();
      notify.warning("Copy the selected secret by hand");
    }
  };
  return (
    <Card className="border-amber-400 p-4 dark:border-amber-500" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-bold">
        Token "{created.token.name}" created
      </h3>
      <p className="text-sm" id={`${id}-hint`}>
        Copy this secret now: it is shown only once and cannot be retrieved later.
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={`${id}-secret`} className="sr-only">
          Secret
        </label>
        <input
          id={`${id}-secret`}
          readOnly
          value={created.secret}
          aria-describedby={`${id}-hint`}
          data-testid="token-secret"
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-lg border border-gray-400 bg-gray-50 px-3 py-2 font-mono text-sm dark:border-gray-600 dark:bg-gray-800"
        />
        <Button variant="outline" onClick={() => void copy()}>
          {copied ? <Check aria-hidden="true" className="h-4 w-4" /> : <Copy aria-hidden="true" className="h-4 w-4" />}
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </Card>
  );
}

function TokenCard({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const revoked = token.revoked_at !== null;
  const makerRole = ROLE_LABELS[token.maker.role];
  // Scopes its maker's role no longer allows, marked while the token works with the others.
  const beyondMaker = token.state === "limited" ? token.scopes.filter((s) => !token.effective_scopes.includes(s)) : [];
  return (
    <Card className="flex h-full flex-col gap-2 p-4" data-testid="token-card">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="min-w-0 break-words font-bold">{token.name}</h3>
        <Badge variant={STATE_BADGES[token.state]} data-testid="token-state">
          {TOKEN_STATE_LABELS[token.state]}
        </Badge>
      </div>
      <p className="font-mono text-sm">
        <span className="sr-only">Prefix </span>
        {token.prefix}…
      </p>
      <ul aria-label="Scopes" className="flex flex-wrap gap-1">
        {token.scopes.map((s) =>
          beyondMaker.includes(s) ? (
            <li key={s}>
              <Badge variant="neutral" className="line-through" title="Beyond what its maker's role allows now">
                {s}
                <span className="sr-only"> (beyond its maker's role: refused)</span>
              </Badge>
            </li>
          ) : (
            <li key={s}>
              <Badge variant="info">{s}</Badge>
            </li>
          ),
        )}
      </ul>
      {token.state === "limited" ? (
        <p className="text-sm text-amber-900 dark:text-amber-100">
          Its maker is now {makerRole}: {beyondMaker.join(", ")} {beyondMaker.length === 1 ? "is" : "are"} refused. It acts with{" "}
          {token.effective_scopes.length > 0 ? token.effective_scopes.join(", ") : "no scope"}.
        </p>
      ) : token.state === "maker_disabled" ? (
        <p className="text-sm text-red-800 dark:text-red-200">
          Its maker's account is disabled: the token is refused until it is enabled again.
        </p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="text-gray-700 dark:text-gray-300">Maker</dt>
        <dd>
          {token.maker.username} ({makerRole}
          {token.maker.is_active ? "" : ", disabled"})
        </dd>
        <dt className="text-gray-700 dark:text-gray-300">Created</dt>
        <dd>{when(token.created_at)}</dd>
        {token.scopes.includes("orders:write") ? (
          <>
            <dt className="text-gray-700 dark:text-gray-300">Channels</dt>
            <dd>{token.channels ? token.channels.join(", ") : "Every channel"}</dd>
          </>
        ) : null}
        <dt className="text-gray-700 dark:text-gray-300">Last used</dt>
        <dd>{when(token.last_used_at)}</dd>
        {revoked ? (
          <>
            <dt className="text-gray-700 dark:text-gray-300">Revoked</dt>
            <dd>{when(token.revoked_at)}</dd>
          </>
        ) : null}
      </dl>
      {revoked ? null : (
        <div className="mt-auto">
          <Button variant="danger" size="sm" onClick={onRevoke} aria-label={`Revoke ${token.name}`}>
            Revoke
          </Button>
        </div>
      )}
    </Card>
  );
}

function RevokeDialog({ token, onClose }: { token: ApiToken; onClose: () => void }) {
  const revoke = useRevokeToken();
  const confirm = () =>
    revoke.mutate(token.id, {
      onSuccess: () => {
        notify.success(`Token ${token.name} revoked`);
        onClose();
      },
      onError: (err) => notify.error(messageOr(err, "Failed to revoke token")),
    });
  return (
    <Dialog
      title={`Revoke token "${token.name}"?`}
      description="Every integration using it stops working at once. This cannot be undone."
      onClose={onClose}
      busy={revoke.isPending}
      size="sm"
      focusFirstField={false}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={revoke.isPending}>
            {revoke.isPending ? "Revoking..." : "Revoke token"}
          </Button>
        </>
      }
    />
  );
}
