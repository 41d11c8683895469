// Whether a container service's starts from zero may restore a memory snapshot (issue 52;
// docs/publishing.md, "Container runtime", and docs/deploy.md, "Snapshot cold starts"): the
// runtime's `snapshot`. Null (every row saved before) reads as true, the default; false keeps
// the runner's snapshot tier away from the service.
export const statements = [`ALTER TABLE service_runtimes ADD COLUMN snapshot boolean`];
