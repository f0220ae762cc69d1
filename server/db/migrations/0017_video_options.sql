-- Issue 35: a task's creative options (null: the spec's clip), the video it extends, and the length
-- asked for (8 s, or the source's length + 7 for an extension). Existing rows are the spec's clip.
ALTER TABLE "video_tasks" ADD COLUMN "options" jsonb;--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "source_task_id" uuid;--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "duration_seconds" integer DEFAULT 8 NOT NULL;