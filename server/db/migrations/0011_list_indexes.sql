-- Issue 19: an index for every list the product serves, in the order it serves it, so a page is
-- an index range scan with no sort and a keyset cursor `(created_at, id) < ($ts, $id)` starts
-- where the last page ended. The last column (id) breaks ties within one timestamp.
--  - users: the admin list (created_at, id) and its search by any part of the email (pg_trgm's
--    trigram GIN answers ILIKE '%text%'; PGlite loads pg_trgm in server/core/db.ts openPglite);
--  - credit_transactions: a user's ledger (user_id, created_at, id), replacing (user_id, created_at);
--  - video_tasks: the admin task list (created_at, id), replacing (created_at), which the admin
--    charts' created_at range scans use as well; a user's history, completed videos only, by
--    (user_id, completed_at, id);
--  - admin_actions, checkout_sessions, webhook_events: the admin audit log, payments and webhook
--    lists (created_at / received_at, id); admin_actions' (created_at) index is replaced.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "users_created_id_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "credit_transactions_user_created_id_idx" ON "credit_transactions" USING btree ("user_id","created_at","id");--> statement-breakpoint
DROP INDEX "credit_transactions_user_created_idx";--> statement-breakpoint
CREATE INDEX "video_tasks_created_id_idx" ON "video_tasks" USING btree ("created_at","id");--> statement-breakpoint
DROP INDEX "video_tasks_created_idx";--> statement-breakpoint
CREATE INDEX "video_tasks_history_idx" ON "video_tasks" USING btree ("user_id","completed_at","id") WHERE "video_tasks"."status" = 'completed' and "video_tasks"."result_url" is not null;--> statement-breakpoint
CREATE INDEX "admin_actions_created_id_idx" ON "admin_actions" USING btree ("created_at","id");--> statement-breakpoint
DROP INDEX "admin_actions_created_idx";--> statement-breakpoint
CREATE INDEX "checkout_sessions_created_id_idx" ON "checkout_sessions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_received_id_idx" ON "webhook_events" USING btree ("received_at","id");
