/** The thread that reads large import bodies (import-body.ts readImportBody). */
import { parentPort } from "node:worker_threads";
import { readBody } from "./import-body.js";

const decoder = new TextDecoder();
parentPort?.on("message", ({ id, body }: { id: number; body: Uint8Array }) => {
  parentPort?.postMessage({ id, answer: readBody(decoder.decode(body)) });
});
