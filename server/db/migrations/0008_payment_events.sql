-- Stripe events billing acts on since issue 16: the payment behind each paid subscription invoice
-- (so a refund or dispute of that payment finds the invoice and the credits it granted), and the
-- disputes of our payments with the credits each holds back. A checkout may now end 'failed'
-- (a delayed payment that did not settle); checkout_sessions.status has no check constraint.
CREATE TABLE "invoice_payments" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"user_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"payment_intent_id" text,
	"charge_id" text,
	"amount_cents" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"credits_per_month" integer NOT NULL,
	"months_granted" integer DEFAULT 0 NOT NULL,
	"credits_granted" integer DEFAULT 0 NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"credits_refunded" integer DEFAULT 0 NOT NULL,
	"credits_unrecovered" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "invoice_payments_payment_intent_idx" ON "invoice_payments" USING btree ("payment_intent_id");
--> statement-breakpoint
CREATE INDEX "invoice_payments_charge_idx" ON "invoice_payments" USING btree ("charge_id");
--> statement-breakpoint
CREATE INDEX "invoice_payments_subscription_period_idx" ON "invoice_payments" USING btree ("subscription_id","period_start");
--> statement-breakpoint
CREATE TABLE "payment_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"user_id" uuid NOT NULL,
	"checkout_id" text,
	"invoice_id" text,
	"charge_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"credits_held" integer DEFAULT 0 NOT NULL,
	"credits_short" integer DEFAULT 0 NOT NULL,
	"credits_released" integer DEFAULT 0 NOT NULL,
	"held_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "payment_disputes_checkout_idx" ON "payment_disputes" USING btree ("checkout_id");
--> statement-breakpoint
CREATE INDEX "payment_disputes_invoice_idx" ON "payment_disputes" USING btree ("invoice_id");
