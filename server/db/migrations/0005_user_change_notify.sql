-- Every change to a user's row, sessions or ledger announces that user's id on the channel
-- 'user_change' when its transaction commits (NOTIFY is transactional and folds duplicates).
-- API processes cache sessions and recent ledger rows in memory and drop a user's entries on
-- this signal (server/core/user-cache.ts), so writes from any process or from SQL typed by hand
-- reach every cache without each write path remembering to say so.
CREATE FUNCTION notify_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('user_change', changed.id::text);
  ELSE
    PERFORM pg_notify('user_change', changed.user_id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_notify_change AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_user_change();
--> statement-breakpoint
CREATE TRIGGER sessions_notify_change AFTER INSERT OR UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_user_change();
--> statement-breakpoint
CREATE TRIGGER credit_transactions_notify_change AFTER INSERT OR UPDATE OR DELETE ON credit_transactions
  FOR EACH ROW EXECUTE FUNCTION notify_user_change();
