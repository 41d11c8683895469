export const RUN_MARK: string;
export const SHARED_DAEMONS: Set<string>;
export interface TestRun {
  mark: string;
  session: string;
  startTime: number;
}
export function markTestRun(): TestRun | null;
export function leftoverProcesses(run: TestRun | null): { pid: number; command: string }[];
export function collectLeftovers(run: TestRun | null, graceMs?: number): Promise<{ pid: number; command: string }[]>;
