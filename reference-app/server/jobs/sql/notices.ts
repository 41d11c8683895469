import { sql } from 'kysely';
import type { JobEvents } from '../events';

// The job queue's notifications (jobs/events.ts), as SQL sent in the same statement as the change:
// a listener never hears of a change that did not commit.

const notice = (events: JobEvents, payload: ReturnType<typeof sql>) => sql`pg_notify(${events.channel}, ${payload})`;

/** `c:<id>:<version>` of the rows the statement returns (columns `id` and `version`). */
export const changedNotice = (events: JobEvents) => notice(events, sql`'c:' || ${sql.ref('id')} || ':' || ${sql.ref('version')}`);

/** `q:<origin>`: the process that sends it wakes its own worker itself (events.ts). */
export const queuedNotice = (events: JobEvents) => notice(events, sql`${`q:${events.origin}`}`);

/** `x:<id>` of the rows the statement returns: the worker running the job stops it. */
export const cancelNotice = (events: JobEvents) => notice(events, sql`'x:' || id`);
