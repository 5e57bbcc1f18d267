-- Table used by @socket.io/postgres-adapter to fan out large packets between server processes.
CREATE TABLE IF NOT EXISTS "socket_io_attachments" (
  "id" bigserial UNIQUE,
  "created_at" timestamptz DEFAULT now(),
  "payload" bytea
);
