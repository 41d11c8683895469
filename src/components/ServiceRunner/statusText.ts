import type { Job } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import type { RunnerPhase } from './runnerMachine';

/** The status line read by the live region: what the run is doing now, in words. */
export function runStatusText(phase: RunnerPhase, job: Job | null, s: Strings['runner']): string {
  switch (phase) {
    case 'validating':
      return s.status.validating;
    case 'submitting':
      return s.status.submitting;
    case 'needsAuth':
      return s.errors.signIn;
    case 'needsCredits':
      return s.errors.credits;
    case 'invalid':
      return s.status.invalid;
    case 'idle':
      return s.status.idle;
    default:
      break;
  }
  if (!job) return s.status.idle;
  if (job.status === 'QUEUED' && job.queue) return formatString(s.status.queuedAt, { position: job.queue.position + 1 });
  return s.status[job.status];
}

/**
 * The runtime's own words while it works ("Denoising step 12 of 30"). Shown next to the status
 * but outside the live region, so a screen reader hears status changes, not every step.
 */
export function runDetailText(job: Job | null): string | null {
  return job && job.status === 'PROCESSING' && job.message ? job.message : null;
}
