// The catalogue's change signal (docs/deploy.md, "Caching"): every statement that writes a
// catalogue table takes the next value of catalogue_version and announces it on the channel
// limelight_catalogue. Each server process LISTENs and drops its cached catalogue answers, so
// a write through any process (or straight into the database) is seen by all of them.
// A sequence rather than a counter row: nextval never blocks or deadlocks concurrent writers,
// and NOTIFY is delivered only when the writing transaction commits.
const TABLES = ['models', 'model_categories', 'pricing_servers', 'model_pricing', 'plans'];

export const statements = [
  `CREATE SEQUENCE catalogue_version`,
  `CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('limelight_catalogue', nextval('catalogue_version')::text);
    RETURN NULL;
  END
  $$`,
  ...TABLES.map(
    (table) =>
      `CREATE TRIGGER ${table}_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed()`,
  ),
];
