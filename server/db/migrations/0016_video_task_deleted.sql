-- Issue 34, finding 10: a customer deletes a video. Its result, poster and upload leave the media
-- store and its prompt and addresses are blanked; the row stays, because the ledger's charge and
-- refund rows name it, and deleted_at says when it was deleted (history and status skip it).
ALTER TABLE "video_tasks" ADD COLUMN "deleted_at" timestamp with time zone;
