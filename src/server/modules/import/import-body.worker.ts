/** The thread that reads large import bodies (import-body.ts readImportBody): pieces arrive as the request does. */
import { parentPort } from "node:worker_threads";
import { type ReadBody, readBody, readFailed } from "./import-body.js";

type Message = { id: number; chunk: Uint8Array } | { id: number; end: true } | { id: number; abort: true };

const decoder = new TextDecoder();
/** Each body being read: its pieces so far. */
const bodies = new Map<number, Uint8Array[]>();

parentPort?.on("message", (message: Message) => {
  const { id } = message;
  if ("chunk" in message) {
    const pieces = bodies.get(id) ?? [];
    pieces.push(message.chunk);
    bodies.set(id, pieces);
    return;
  }
  const pieces = bodies.get(id) ?? [];
  bodies.delete(id);
  if ("abort" in message) return;
  // Whatever reading one body throws is that body's answer (a 500): thrown here, it would end the
  // thread and with it every other body being read.
  let answer: ReadBody;
  try {
    answer = readBody(decoder.decode(Buffer.concat(pieces)));
  } catch (err) {
    answer = readFailed(err);
  }
  // The chunks' bytes move to the event loop's thread: nothing is copied there.
  parentPort?.postMessage({ id, answer }, answer.ok ? [answer.bytes.buffer as ArrayBuffer] : []);
});
