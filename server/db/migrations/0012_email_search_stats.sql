-- Issue 19: the admin's email search asks the trigram index only for the rarest part of the text
-- (server/domains/admin/email-search.ts). Which trigrams are common comes from these statistics:
-- ANALYZE samples show_trgm(email) and keeps its most common elements with their frequencies
-- (pg_stats_ext_exprs). No index is added; autovacuum keeps them current on PostgreSQL.
CREATE STATISTICS IF NOT EXISTS "users_email_trigram_stats" ON (show_trgm("email")) FROM "users";--> statement-breakpoint
ANALYZE "users";
