-- Issue 21: a post has a language (its list and address: /blog or /zh/blog) and may translate an
-- original in another language, one translation per language. The partial index serves each
-- language's public list; the unique one finds an original's translations.
ALTER TABLE "posts" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "translation_of" uuid;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_translation_of_posts_id_fk" FOREIGN KEY ("translation_of") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_locale_published_idx" ON "posts" USING btree ("locale","published_at") WHERE "posts"."status" = 'published';--> statement-breakpoint
CREATE UNIQUE INDEX "posts_translation_locale_unique" ON "posts" USING btree ("translation_of","locale");--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_locale_known" CHECK ("posts"."locale" in ('en', 'zh-CN'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_not_own_translation" CHECK ("posts"."translation_of" is distinct from "posts"."id");