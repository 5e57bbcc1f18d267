-- Login throttle counters (fixed windows per key) replace the per-attempt login_failures rows.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_failures" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
-- Sessions get an id that names them without their token; socket tokens belong to a session
-- (unused ones die with it). Socket tokens live 60 s: the ones in flight are simply dropped.
DELETE FROM "socket_tokens";--> statement-breakpoint
ALTER TABLE "socket_tokens" DROP CONSTRAINT "socket_tokens_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "id" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_id_unique" UNIQUE("id");--> statement-breakpoint
ALTER TABLE "socket_tokens" ADD COLUMN "session_id" bigint NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limits_window_idx" ON "rate_limits" USING btree ("window_started_at");--> statement-breakpoint
ALTER TABLE "socket_tokens" ADD CONSTRAINT "socket_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "socket_tokens_session_idx" ON "socket_tokens" USING btree ("session_id");--> statement-breakpoint
ALTER TABLE "socket_tokens" DROP COLUMN "user_id";
