// Jobs a user may have PROCESSING at once, by plan (docs/jobs.md: concurrency). More queued jobs
// wait their turn; they are never refused for concurrency. The claim reads it (queries.ts).
export const PLAN_CONCURRENCY = { free: 2, plus: 4, pro: 8, enterprise: 16 } as const;
