import { Boxes } from "lucide-react";
import { type FormEvent, useState } from "react";
import { MESSAGES } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/field";
import { messageOr } from "../../../lib/http";
import { ThemeToggle } from "../../theme";
import { useAuth } from "../hooks/use-auth";
import { SESSION_ENDED } from "../messages";

export function LoginScreen() {
  const { login, sessionEnded } = useAuth();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Why this screen shows (a session that ended), until the user tries to sign in.
  const [tried, setTried] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    if (!username.trim() || !password) {
      setError(MESSAGES.loginBothRequired);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await login(username.trim(), password);
    } catch (err) {
      setError(messageOr(err, MESSAGES.loginFailed));
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gray-100 p-4 dark:bg-gray-950">
      <Card className="relative w-full max-w-sm p-6">
        <ThemeToggle className="absolute right-3 top-3" />
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <Boxes aria-hidden="true" className="h-10 w-10 text-blue-700 dark:text-blue-400" />
          <h1 className="text-2xl font-bold">Blez Inventory</h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">Sign in to manage your inventory</p>
        </div>
        {sessionEnded && !tried ? (
          <p
            role="status"
            data-testid="session-ended"
            className="mb-4 rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            {SESSION_ENDED}
          </p>
        ) : null}
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <TextField
            label="Username"
            name="username"
            autoFocus
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            value={username}
            disabled={busy}
            onChange={(e) => {
              setUsername(e.target.value);
              setError(null);
            }}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            disabled={busy}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
          />
          {error ? (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800 dark:bg-red-950 dark:text-red-200">
              {error}
            </p>
          ) : null}
          <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
            {busy ? "Logging in..." : "Login"}
          </Button>
        </form>
      </Card>
    </main>
  );
}
