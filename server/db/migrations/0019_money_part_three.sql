-- Issue 37: promotion codes and their redemptions, the receipt outbox, each user's running value of
-- a credit and a video's revenue, a checkout's discount and language; and the video_change notice
-- that keeps /v1 video reads cached per process honest (issue 36).
CREATE TABLE "promotion_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"code_key" text NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"applies_to" text NOT NULL,
	"first_purchase_only" boolean DEFAULT false NOT NULL,
	"max_redemptions" integer,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"stripe_coupon_id" text,
	"stripe_promotion_code_id" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_codes_code_key_unique" UNIQUE("code_key"),
	CONSTRAINT "promotion_codes_one_discount" CHECK (("promotion_codes"."percent_off" is null) <> ("promotion_codes"."amount_off_cents" is null)),
	CONSTRAINT "promotion_codes_percent_range" CHECK ("promotion_codes"."percent_off" is null or ("promotion_codes"."percent_off" between 1 and 100)),
	CONSTRAINT "promotion_codes_amount_positive" CHECK ("promotion_codes"."amount_off_cents" is null or "promotion_codes"."amount_off_cents" > 0),
	CONSTRAINT "promotion_codes_redemptions_within_max" CHECK ("promotion_codes"."max_redemptions" is null or "promotion_codes"."redemptions" <= "promotion_codes"."max_redemptions")
);
--> statement-breakpoint
CREATE TABLE "promotion_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"checkout_id" text NOT NULL,
	"discount_cents" integer NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemed_at" timestamp with time zone,
	CONSTRAINT "promotion_redemptions_checkout_id_unique" UNIQUE("checkout_id")
);
--> statement-breakpoint
CREATE TABLE "receipt_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"source_key" text NOT NULL,
	"receipt_number" text NOT NULL,
	"locale" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_emails_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "receipt_emails_receipt_number_unique" UNIQUE("receipt_number")
);
--> statement-breakpoint
CREATE TABLE "user_credit_value" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"paid_micros" bigint DEFAULT 0 NOT NULL,
	"credits_granted" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "promotion_code_id" uuid;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "revenue_usd" numeric(12, 6);--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promotion_codes" ADD CONSTRAINT "promotion_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_code_id_promotion_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."promotion_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_emails" ADD CONSTRAINT "receipt_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_credit_value" ADD CONSTRAINT "user_credit_value_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promotion_codes_created_idx" ON "promotion_codes" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_code_idx" ON "promotion_redemptions" USING btree ("code_id","created_at","id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_user_idx" ON "promotion_redemptions" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "receipt_emails_due_idx" ON "receipt_emails" USING btree ("next_attempt_at") WHERE "receipt_emails"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "receipt_emails_user_idx" ON "receipt_emails" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_user_paid_idx" ON "checkout_sessions" USING btree ("user_id","completed_at","id") WHERE "checkout_sessions"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "invoice_payments_user_created_idx" ON "invoice_payments" USING btree ("user_id","created_at","invoice_id");--> statement-breakpoint
-- Receipt numbers (receipt_emails.receipt_number = 'R-' || nextval): unique, never reused.
CREATE SEQUENCE "receipt_number_seq" START WITH 1001;--> statement-breakpoint
-- A change to a video task announces its owner on 'video_change' when its transaction commits:
-- processes that cache /v1 video reads (domains/api/video-read-cache.ts) drop that user's entries,
-- whichever process or hand-typed SQL changed the row (as 'user_change' does for sessions).
CREATE FUNCTION notify_video_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  PERFORM pg_notify('video_change', changed.user_id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER video_tasks_notify_change AFTER INSERT OR UPDATE OR DELETE ON video_tasks
  FOR EACH ROW EXECUTE FUNCTION notify_video_change();
--> statement-breakpoint
-- Backfill (issue 37, item 5): each customer's value of a credit from what they bought before this
-- release, by the rule the code keeps from now on (domains/credits/credit-value.ts), so the margin
-- view prices their next videos at what they paid rather than at nothing. USD only.
-- - A paid checkout: its amount, and the credits it bought (a yearly plan's: twelve months).
-- - A paid subscription invoice other than its subscription's first (that one is the checkout's
--   payment): its amount and the credits of its period (twelve months for a yearly plan).
-- - A refund: the money back, and the same share of what that payment bought.
-- - An administrator's grant or takeback: credits only.
-- Left out: local-mode renewals (no amount is stored for them) and disputes.
INSERT INTO user_credit_value (user_id, paid_micros, credits_granted)
SELECT user_id, greatest(sum(paid), 0), greatest(sum(credits), 0)
  FROM (
    SELECT c.user_id,
           c.amount_cents::bigint * 10000 AS paid,
           CASE WHEN c.kind = 'subscription' AND c.billing_cycle = 'yearly'
                THEN c.credits * 12 ELSE c.credits END::bigint AS credits
      FROM checkout_sessions c
     WHERE c.status = 'paid' AND lower(c.currency) = 'usd'
    UNION ALL
    -- A pack's refunds took back the same share of its credits as of its money.
    SELECT c.user_id,
           -(c.amount_cents::bigint * (c.credits_refunded + c.credits_unrecovered) * 10000
             / nullif(c.credits, 0)),
           -(c.credits_refunded + c.credits_unrecovered)::bigint
      FROM checkout_sessions c
     WHERE c.status = 'paid' AND c.kind = 'credits' AND lower(c.currency) = 'usd'
       AND c.credits_refunded + c.credits_unrecovered > 0
    UNION ALL
    SELECT i.user_id,
           CASE WHEN i.period_start > first.start THEN i.amount_cents ELSE 0 END::bigint * 10000
             - i.refunded_cents::bigint * 10000,
           CASE WHEN i.period_start > first.start THEN bought.credits ELSE 0 END
             - bought.credits * i.refunded_cents / nullif(i.amount_cents, 0)
      FROM invoice_payments i
      JOIN subscriptions s ON s.id = i.subscription_id
      CROSS JOIN LATERAL (
        SELECT min(f.period_start) AS start FROM invoice_payments f
         WHERE f.subscription_id = i.subscription_id
      ) AS first
      CROSS JOIN LATERAL (
        SELECT (i.credits_per_month
                * CASE WHEN s.billing_cycle = 'yearly' THEN 12 ELSE 1 END)::bigint AS credits
      ) AS bought
    UNION ALL
    SELECT t.user_id, 0, t.amount::bigint
      FROM credit_transactions t
     WHERE t.source_type = 'admin_adjustment'
  ) AS bought_before
 GROUP BY user_id
ON CONFLICT (user_id) DO NOTHING;
