-- Issue 17: routed video providers. The per-task record (provider model and request id, timings,
-- cost, raw provider error, every submit tried), the queue's run_after (a rate limit's wait, the
-- next status check) and each provider's health (circuit breaker, shared by all workers).
ALTER TABLE "video_tasks" ADD COLUMN "provider_model" text;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "provider_request_id" text;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "submit_started_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "submitted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "provider_finished_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "provider_cost_usd" numeric(12, 6);
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "provider_error" text;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "failure_kind" text;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "route_attempts" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "run_after" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Tasks that already reached a provider keep their submit time (their job id proves it).
UPDATE "video_tasks" SET "submitted_at" = "created_at" WHERE "provider_job_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "video_tasks_provider_request_idx" ON "video_tasks" USING btree ("provider_request_id");
--> statement-breakpoint
CREATE INDEX "video_tasks_created_idx" ON "video_tasks" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "video_provider_health" (
	"provider" text PRIMARY KEY NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"open_until" timestamp with time zone,
	"rate_limited_until" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "video_tasks_due_idx" ON "video_tasks" USING btree ("run_after") WHERE "video_tasks"."status" in ('pending', 'processing');
