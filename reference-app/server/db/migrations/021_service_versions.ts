// A container service's versions (docs/publishing.md, "Versions and rollback"): every save of a
// container runtime with an image other than the newest version's records one row: the image
// (by digest when pushed with `limelight push`), when, who, and whether its rollout served.
// model_hosting holds only the latest rollout (migration 019); the outcome of each version is
// copied from it by a trigger whenever a runner (this process or another) stores a rollout, so no
// writer of model_hosting has to know about versions. A rollback is a new row (`kind` rollback)
// naming an earlier image: the history reads as it happened.
export const statements = [
  `CREATE TABLE service_versions (
    id bigserial PRIMARY KEY,
    model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    image text NOT NULL,
    digest text,
    kind text NOT NULL DEFAULT 'deploy' CHECK (kind IN ('deploy', 'rollback')),
    deployed_by uuid REFERENCES users(id) ON DELETE SET NULL,
    deployed_at timestamptz NOT NULL DEFAULT now(),
    outcome text NOT NULL DEFAULT 'pending',
    outcome_message text
  )`,
  `CREATE INDEX service_versions_model ON service_versions (model_id, id DESC)`,
  // Services deployed before: their saved image is their one version, by their owner.
  `INSERT INTO service_versions (model_id, image, digest, deployed_by, deployed_at, outcome, outcome_message)
    SELECT r.model_id, r.image, substring(r.image from '@(sha256:[0-9a-f]{64})$'), m.created_by,
      coalesce(h.updated_at, r.updated_at), coalesce(h.rollout_status, 'succeeded'), h.rollout_message
    FROM service_runtimes r JOIN models m ON m.id = r.model_id
    LEFT JOIN model_hosting h ON h.model_id = r.model_id
    WHERE r.type = 'container' AND r.image IS NOT NULL`,
  `CREATE FUNCTION service_versions_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.rollout_image IS NOT NULL AND NEW.rollout_status IS NOT NULL THEN
      UPDATE service_versions SET outcome = NEW.rollout_status, outcome_message = NEW.rollout_message
        WHERE id = (SELECT id FROM service_versions WHERE model_id = NEW.model_id AND image = NEW.rollout_image
                    ORDER BY id DESC LIMIT 1);
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER model_hosting_rollout AFTER INSERT OR UPDATE OF rollout_image, rollout_status, rollout_message
    ON model_hosting FOR EACH ROW EXECUTE FUNCTION service_versions_outcome()`,
];
