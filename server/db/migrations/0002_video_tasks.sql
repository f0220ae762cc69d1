CREATE TABLE "video_tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_message" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"model" text NOT NULL,
	"mode" text NOT NULL,
	"prompt" text NOT NULL,
	"input_image" text,
	"provider" text NOT NULL,
	"provider_job_id" text,
	"result_url" text,
	"poster_url" text,
	"error_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_tasks_progress_range" CHECK ("video_tasks"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD CONSTRAINT "video_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_tasks_queue_idx" ON "video_tasks" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "video_tasks_user_idx" ON "video_tasks" USING btree ("user_id","created_at");