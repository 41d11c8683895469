// Two changes that take statements off every job's path (docs/jobs.md, "What makes the path fast").
//
// 1. Run counts are not catalogue structure. Every job that ends adds to `models.n_usages`, and
//    migration 006 announced each such write as a catalogue change, so every batch of finishes
//    made every process drop and reload its cached services and GPU prices. A write that changes
//    nothing but `n_usages` now announces `counts:<version>`: the catalogue cache still drops its
//    answers (they show run counts), the job service keeps its services (they do not depend on
//    them). Any other write to `models` announces as before.
//
// 2. `job_funds(user)` takes the user's create lock and reads their balance and open holds. A
//    VOLATILE function reads with a fresh snapshot taken after the lock is granted, so a create
//    is one statement (one round trip) that still sees every create of that user committed
//    before it: before this, ordering creates needed BEGIN, the lock, the insert and COMMIT.
const WITHOUT_COUNT = (row: string) => `(to_jsonb(${row}) - 'n_usages')`;

export const statements = [
  `CREATE FUNCTION catalogue_counted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('limelight_catalogue', 'counts:' || nextval('catalogue_version')::text);
    RETURN NULL;
  END
  $$`,
  `DROP TRIGGER models_catalogue_changed ON models`,
  `CREATE TRIGGER models_catalogue_changed AFTER INSERT OR DELETE OR TRUNCATE ON models
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed()`,
  `CREATE TRIGGER models_catalogue_updated AFTER UPDATE ON models
    FOR EACH ROW WHEN (${WITHOUT_COUNT('OLD')} IS DISTINCT FROM ${WITHOUT_COUNT('NEW')})
    EXECUTE FUNCTION catalogue_changed()`,
  `CREATE TRIGGER models_catalogue_counted AFTER UPDATE OF n_usages ON models
    FOR EACH ROW WHEN (${WITHOUT_COUNT('OLD')} IS NOT DISTINCT FROM ${WITHOUT_COUNT('NEW')} AND OLD.n_usages IS DISTINCT FROM NEW.n_usages)
    EXECUTE FUNCTION catalogue_counted()`,
  // ROWS 1: the default estimate (1000 rows) made the planner cost the create in the millions and
  // switch on JIT compilation, 350 ms per statement.
  `CREATE FUNCTION job_funds(p_user uuid) RETURNS TABLE (balance numeric, reserved numeric)
    LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('jobs create ' || p_user::text, 0));
    RETURN QUERY SELECT
      (SELECT coalesce(sum(l.amount), 0) FROM credit_ledger l WHERE l.user_id = p_user),
      (SELECT coalesce(sum(j.hold_credits), 0) FROM jobs j WHERE j.user_id = p_user AND j.status IN ('QUEUED', 'PROCESSING'));
  END
  $$`,
];
