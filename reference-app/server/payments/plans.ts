// Jobs a user may have PROCESSING at once, by plan (docs/jobs.md: concurrency). More queued jobs
// wait their turn; they are never refused for concurrency. The claim (jobs/sql/claimJobs.ts)
// reads it through planConcurrencySql (queries.ts): which plan a user has is payments' to say.
export const PLAN_CONCURRENCY = { free: 2, plus: 4, pro: 8, enterprise: 16 } as const;
