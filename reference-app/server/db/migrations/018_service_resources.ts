// What one instance of a container service may use, as its owner declares it (issue 47;
// docs/publishing.md, "Resources"): CPUs, memory in MB and GPUs. Null (every row saved before)
// reads as the defaults of a CPU service (hosting/contract.ts, DEFAULT_RESOURCES), never as the
// GPU offer's host slice the runner reserved until then.
export const statements = [
  `ALTER TABLE service_runtimes ADD COLUMN cpu double precision`,
  `ALTER TABLE service_runtimes ADD COLUMN memory_mb integer`,
  `ALTER TABLE service_runtimes ADD COLUMN gpu_count integer`,
];
