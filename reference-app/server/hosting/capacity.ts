import { EngineError } from './engine';
import type { ResourceLimits } from './limits';

// What one runner's machine holds (docs/publishing.md, "Capacity"): measured on the runner's
// host (its CPUs and memory) or set by CONTAINER_CAPACITY_MB. Every container the runner creates,
// running or parked in the warm pool, reserves its memory limit here first; when the machine is
// full, no more start, whatever the deployments ask. CPU limits are ceilings, not reservations
// (an idle instance uses none), so only one instance's share is capped at the machine's count.

export interface Capacity {
  memoryMb: number;
  cpus: number;
}

/** The share of the engine's memory publishers' containers may reserve: the platform, its database and the engine keep the rest. */
export const CONTAINER_MEMORY_SHARE = 0.75;

export class HostCapacity {
  #reservedMb = 0;

  constructor(readonly total: Capacity) {}

  get reservedMb(): number {
    return this.#reservedMb;
  }

  /** One instance's limits, never more than the whole machine. */
  cap(limits: ResourceLimits): ResourceLimits {
    return { ...limits, memoryMb: Math.min(limits.memoryMb, this.total.memoryMb), cpus: Math.min(limits.cpus, this.total.cpus) };
  }

  /** Reserves one instance's memory; returns its release (safe to call twice). Throws when full. */
  reserve(memoryMb: number): () => void {
    if (this.#reservedMb + memoryMb > this.total.memoryMb) {
      throw new EngineError(
        'capacity',
        `The runner has no room for another ${memoryMb} MB instance (${this.#reservedMb} of ${this.total.memoryMb} MB in use)`,
      );
    }
    this.#reservedMb += memoryMb;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#reservedMb -= memoryMb;
    };
  }
}
