-- Issue 32: a video task stores the credits its submit debited, so a refund returns exactly that
-- amount even after VIDEO_COST changes. Every existing task was charged 17 credits (the cost until
-- now): the default backfills them and is dropped at once, so a new row must say what it charged.
ALTER TABLE "video_tasks" ADD COLUMN "credits_charged" integer DEFAULT 17 NOT NULL;--> statement-breakpoint
ALTER TABLE "video_tasks" ALTER COLUMN "credits_charged" DROP DEFAULT;
