// The catalogue shows a container service's coarse deployment state (ready, starting,
// unavailable: catalogue/descriptors.ts), so a change of it must drop the cached catalogue like
// any catalogue write (migration 006). model_hosting is not a catalogue table: its instances and
// cold starts change with every scale-up and run, and announcing those would empty the cache all
// the time. These triggers announce a row that appears or goes, and a status change that moves
// the coarse state only.
const COARSE = (status: string) =>
  `CASE WHEN ${status} IN ('running', 'scaled_to_zero') THEN 'ready' WHEN ${status} = 'deploying' THEN 'starting' ELSE 'unavailable' END`;

export const statements = [
  `CREATE TRIGGER model_hosting_rows_catalogue_changed AFTER INSERT OR DELETE ON model_hosting
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed()`,
  `CREATE TRIGGER model_hosting_state_catalogue_changed AFTER UPDATE OF status ON model_hosting
    FOR EACH ROW WHEN (${COARSE('OLD.status')} IS DISTINCT FROM ${COARSE('NEW.status')})
    EXECUTE FUNCTION catalogue_changed()`,
];
