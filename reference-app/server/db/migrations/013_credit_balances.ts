// Each user's balance, kept up to date, instead of summed from the whole ledger (docs/jobs.md,
// "What makes the path fast"). Every job create (`job_funds`, migration 012) and every batch of
// finishes read the owner's balance; as `sum(credit_ledger.amount)` that read grew with every
// run the user ever made (20,000 entries: 4 ms of PostgreSQL per read). `credit_balances` holds
// the sum, maintained by statement triggers on the ledger in the same transaction as the entries,
// so it is exactly the sum at every snapshot: no writer of the ledger has to know about it.
//
// - One row per user with entries; the upsert of a statement's users goes in user id order, so
//   two statements that credit the same users lock their rows in the same order.
// - Deleting entries subtracts without creating rows: a user deleted with their entries (ON
//   DELETE CASCADE) may already have lost their balance row.
// - All entries a statement writes come to one firing, even from several of its CTEs (the finish
//   writes charges and earnings in one statement).
// - The ledger stays the record: entries are listed from it, and `credit_balances` can always be
//   rebuilt from it with the INSERT below.

/** Adds each user's sum of `changes` (rows of user_id, amount) to their balance, creating it if needed. */
const addToBalances = (changes: string) => `INSERT INTO credit_balances (user_id, balance)
      SELECT user_id, sum(amount) FROM (${changes}) changes GROUP BY user_id ORDER BY user_id
      ON CONFLICT (user_id) DO UPDATE SET balance = credit_balances.balance + excluded.balance`;

export const statements = [
  // No entry may be written between the backfill's read and the triggers' creation (a server of
  // the previous version still running): the ledger is locked against writes until the commit.
  `LOCK TABLE credit_ledger IN SHARE ROW EXCLUSIVE MODE`,
  `CREATE TABLE credit_balances (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    balance numeric(18, 4) NOT NULL
  )`,
  `INSERT INTO credit_balances (user_id, balance) SELECT user_id, sum(amount) FROM credit_ledger GROUP BY user_id`,
  `CREATE FUNCTION credit_balances_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${addToBalances('SELECT user_id, amount FROM added')};
    RETURN NULL;
  END
  $$`,
  `CREATE FUNCTION credit_balances_remove() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE credit_balances b SET balance = b.balance - r.amount
      FROM (SELECT user_id, sum(amount) AS amount FROM removed GROUP BY user_id ORDER BY user_id) r
      WHERE b.user_id = r.user_id;
    RETURN NULL;
  END
  $$`,
  `CREATE FUNCTION credit_balances_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${addToBalances('SELECT user_id, amount FROM added UNION ALL SELECT user_id, -amount FROM removed')};
    RETURN NULL;
  END
  $$`,
  `CREATE FUNCTION credit_balances_reset() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM credit_balances;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER credit_ledger_added AFTER INSERT ON credit_ledger
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION credit_balances_add()`,
  `CREATE TRIGGER credit_ledger_removed AFTER DELETE ON credit_ledger
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION credit_balances_remove()`,
  `CREATE TRIGGER credit_ledger_changed AFTER UPDATE ON credit_ledger
    REFERENCING NEW TABLE AS added OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION credit_balances_change()`,
  `CREATE TRIGGER credit_ledger_truncated AFTER TRUNCATE ON credit_ledger
    FOR EACH STATEMENT EXECUTE FUNCTION credit_balances_reset()`,
  // The create's read of funds, from the kept balance (same lock, same fresh snapshot).
  `CREATE OR REPLACE FUNCTION job_funds(p_user uuid) RETURNS TABLE (balance numeric, reserved numeric)
    LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('jobs create ' || p_user::text, 0));
    RETURN QUERY SELECT
      (SELECT coalesce(max(b.balance), 0) FROM credit_balances b WHERE b.user_id = p_user),
      (SELECT coalesce(sum(j.hold_credits), 0) FROM jobs j WHERE j.user_id = p_user AND j.status IN ('QUEUED', 'PROCESSING'));
  END
  $$`,
];
