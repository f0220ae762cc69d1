-- One active subscription per user (issue 16, finding 2). The status list is
-- ACTIVE_SUBSCRIPTION_STATUSES in server/db/schema.ts; tests/security/one-active-subscription.test.ts
-- checks that the index below spells the same list.
CREATE TABLE "duplicate_subscriptions" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"kept_subscription_id" text,
	"refund" boolean DEFAULT true NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "duplicate_subscriptions_due_idx" ON "duplicate_subscriptions" USING btree ("next_attempt_at") WHERE "duplicate_subscriptions"."settled_at" is null;
--> statement-breakpoint
-- A database that already holds several active subscriptions of one user keeps the newest. The
-- older Stripe ones are queued for the billing sweep, which cancels them at Stripe as well (no
-- refund: the user had those periods and their credits).
INSERT INTO "duplicate_subscriptions" ("subscription_id", "provider", "kept_subscription_id", "refund")
SELECT s."id", s."provider", kept."id", false
FROM "subscriptions" s
CROSS JOIN LATERAL (
	SELECT n."id" FROM "subscriptions" n
	WHERE n."user_id" = s."user_id" AND n."status" IN ('active', 'trialing', 'past_due')
	ORDER BY n."created_at" DESC, n."id" DESC
	LIMIT 1
) kept
WHERE s."status" IN ('active', 'trialing', 'past_due') AND s."id" <> kept."id" AND s."provider" = 'stripe'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "subscriptions" s
SET "status" = 'canceled', "canceled_at" = coalesce(s."canceled_at", now()), "updated_at" = now()
WHERE s."status" IN ('active', 'trialing', 'past_due')
	AND EXISTS (
		SELECT 1 FROM "subscriptions" n
		WHERE n."user_id" = s."user_id" AND n."status" IN ('active', 'trialing', 'past_due')
			AND (n."created_at", n."id") > (s."created_at", s."id")
	);
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_active_per_user" ON "subscriptions" USING btree ("user_id") WHERE "subscriptions"."status" in ('active', 'trialing', 'past_due');
--> statement-breakpoint
-- When Stripe stops accepting payment for a session (null for local checkouts).
ALTER TABLE "checkout_sessions" ADD COLUMN "expires_at" timestamp with time zone;
--> statement-breakpoint
-- One Stripe customer per user, named by every checkout after the first.
CREATE TABLE "stripe_customers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_customers_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
ALTER TABLE "stripe_customers" ADD CONSTRAINT "stripe_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
