/** The thread that reads large import bodies (import-body.ts readImportBody). */
import { parentPort } from "node:worker_threads";
import { readBody } from "./import-body.js";

const decoder = new TextDecoder();
parentPort?.on("message", ({ id, body }: { id: number; body: Uint8Array }) => {
  const answer = readBody(decoder.decode(body));
  // The chunks' bytes move to the event loop's thread: nothing is copied there.
  parentPort?.postMessage({ id, answer }, answer.ok ? [answer.bytes.buffer as ArrayBuffer] : []);
});
