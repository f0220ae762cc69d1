-- Issue 32, item 3: a task's status and failure are stored as a catalogue key and parameters
-- (messages/api), so they are shown in the reader's language; status_message and error_message
-- keep their English for the data API and the admin view. Existing rows: each English sentence
-- the server wrote becomes its key (a sentence not known here keeps status_text null and is shown
-- as it is).
ALTER TABLE "video_tasks" ADD COLUMN "status_text" jsonb;--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "error_text" jsonb;--> statement-breakpoint
UPDATE "video_tasks" SET "status_text" = CASE "status_message"
  WHEN 'Waiting in the queue' THEN jsonb_build_object('key', 'task.queued', 'params', '{}'::jsonb)
  WHEN 'The video service is busy. Your video starts as soon as it has room; no need to resubmit.' THEN jsonb_build_object('key', 'task.busy', 'params', '{}'::jsonb)
  WHEN 'Waiting for the video service to start' THEN jsonb_build_object('key', 'task.provider_queue', 'params', '{}'::jsonb)
  WHEN 'Generating video' THEN jsonb_build_object('key', 'task.generating', 'params', '{}'::jsonb)
  WHEN 'The video service had a hiccup. Retrying shortly.' THEN jsonb_build_object('key', 'task.retrying', 'params', '{}'::jsonb)
  WHEN 'Saving video' THEN jsonb_build_object('key', 'task.saving', 'params', '{}'::jsonb)
  WHEN 'Resuming shortly' THEN jsonb_build_object('key', 'task.resuming', 'params', '{}'::jsonb)
  WHEN 'Video ready' THEN jsonb_build_object('key', 'task.ready', 'params', '{}'::jsonb)
  WHEN 'Failed' THEN jsonb_build_object('key', 'task.failed', 'params', '{}'::jsonb)
  ELSE jsonb_build_object('key', 'task.provider_queue_at', 'params', jsonb_build_object('position', (substring("status_message" from '^Waiting for the video service to start \(position ([0-9]+)\)$'))::int))
END
WHERE "status_message" IN ('Waiting in the queue', 'The video service is busy. Your video starts as soon as it has room; no need to resubmit.', 'Waiting for the video service to start', 'Generating video', 'The video service had a hiccup. Retrying shortly.', 'Saving video', 'Resuming shortly', 'Video ready', 'Failed')
  OR "status_message" ~ '^Waiting for the video service to start \(position [0-9]+\)$';--> statement-breakpoint
UPDATE "video_tasks" SET "error_text" = jsonb_build_object('key', 'task.failure.content_policy', 'params', jsonb_build_object('credits', (substring("error_message" from ' Your ([0-9]+) credits have been refunded\.$'))::int))
WHERE "error_message" ~ '^The video service''s safety filter blocked this prompt or image\. Change it and try again\. Your [0-9]+ credits have been refunded\.$';--> statement-breakpoint
UPDATE "video_tasks" SET "error_text" = jsonb_build_object('key', 'task.failure.provider', 'params', jsonb_build_object('credits', (substring("error_message" from ' Your ([0-9]+) credits have been refunded\.$'))::int))
WHERE "error_message" ~ '^The video service could not make this video\. Please try again\. Your [0-9]+ credits have been refunded\.$';--> statement-breakpoint
UPDATE "video_tasks" SET "error_text" = jsonb_build_object('key', 'task.failure.unavailable', 'params', jsonb_build_object('credits', (substring("error_message" from ' Your ([0-9]+) credits have been refunded\.$'))::int))
WHERE "error_message" ~ '^The video service could not take your video right now\. Please try again later\. Your [0-9]+ credits have been refunded\.$';--> statement-breakpoint
UPDATE "video_tasks" SET "error_text" = jsonb_build_object('key', 'task.failure.deadline', 'params', jsonb_build_object('credits', (substring("error_message" from ' Your ([0-9]+) credits have been refunded\.$'))::int))
WHERE "error_message" ~ '^Video generation did not finish in time and was stopped\. Your [0-9]+ credits have been refunded\.$';--> statement-breakpoint
UPDATE "video_tasks" SET "error_text" = jsonb_build_object('key', 'task.failure.result', 'params', jsonb_build_object('seconds', (substring("error_message" from 'last about ([0-9]+) seconds'))::int, 'credits', (substring("error_message" from ' Your ([0-9]+) credits have been refunded\.$'))::int))
WHERE "error_message" ~ '^The video service returned a video that failed our checks \(it must play, last about [0-9]+ seconds and have sound\)\. Please try again\. Your [0-9]+ credits have been refunded\.$';
