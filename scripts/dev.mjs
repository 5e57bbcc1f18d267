// `npm run dev`: the API server (reloading on change) on API_PORT and Vite (hot reload) on 3000.
import { spawn } from "node:child_process";

const apiPort = process.env.API_PORT ?? "3001";
const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "src/server/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: apiPort, HOST: "127.0.0.1" },
  }),
  spawn("npx", ["vite"], { stdio: "inherit", env: { ...process.env, API_PORT: apiPort } }),
];
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children)
  c.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
