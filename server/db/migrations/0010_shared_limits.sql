-- Issue 18: state that API instances sharing one database share. Rate-limit counters (one fixed
-- window per route and client, counted with one upsert; expired rows are deleted by the hourly
-- cleanup), and the newest tick each scheduled job was claimed for, so an hourly job runs on one
-- instance per tick. The ledger gets an index by time for the admin charts' last 30 days.
CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"tick" bigint NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"instance" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "credit_transactions_created_idx" ON "credit_transactions" USING btree ("created_at");
