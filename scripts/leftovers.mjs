// The processes a test run started and left running (docs/testing.md, "Nothing left running").
// npm test marks its run: every process it starts inherits LIMELIGHT_TEST_RUN in its environment
// or, where a test builds an environment from scratch, at least the run's session (only a process
// that calls setsid() leaves it, and those, Podman's conmon among them, keep the environment
// variable). At the end, any process started after the run began that carries the mark, or is an
// orphan of the run's session, is a leftover: a server a test forgot, a registry whose server was
// killed, a database not stopped.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_MARK = 'LIMELIGHT_TEST_RUN';

/**
 * Host-wide daemons a run may start but does not own. Podman starts one aardvark-dns for every
 * DNS-enabled network on the host, the first time a container joins one; it serves all of them
 * and leaves by itself once no network has a container. It carries the mark of whichever run
 * happened to start it, yet stopping it would cut name resolution for every other container on
 * the host, and it lingers for reasons outside the run (another user's containers, a network a
 * crashed engine never tore down). The run's own containers and networks are removed by the
 * tests' cleanup (test/setup/containerEngine.ts), which is where a forgotten one shows.
 */
export const SHARED_DAEMONS = new Set(['aardvark-dns']);

const programOf = (command) => command.split(' ', 1)[0].split('/').pop();

/** Fields of /proc/<pid>/stat after the command's closing parenthesis (pid 1 is fields[-2]). */
function statOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Marks this process's run; children inherit it through process.env. Linux only (else a no-op). */
export function markTestRun() {
  const self = statOf(process.pid);
  if (!self) return null;
  const mark = randomBytes(8).toString('hex');
  process.env[RUN_MARK] = mark;
  // stat fields after "(comm) ": state ppid pgrp session … starttime is the 20th of them.
  return { mark, session: self[3], startTime: Number(self[19]) };
}

function environOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/**
 * Whether a process of the run's session that lost the mark is the run's: its ancestors up to one
 * older than the run lead to init (an orphan, as a killed server's child is) or to the run itself.
 * A process of something else in the same session (a shell's other job) has an older parent of
 * its own and is left alone.
 */
function orphanOfRun(pid, run) {
  for (let ancestor = Number(statOf(pid)?.[1] ?? 1); ;) {
    if (ancestor <= 1 || ancestor === process.pid) return true;
    const stat = statOf(ancestor);
    if (!stat || Number(stat[19]) < run.startTime) return false;
    ancestor = Number(stat[1]);
  }
}

/** The processes of this run still alive (zombies excepted): [{ pid, command }]. */
export function leftoverProcesses(run) {
  if (!run) return [];
  const found = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const stat = statOf(pid);
    if (!stat || stat[0] === 'Z' || Number(stat[19]) < run.startTime) continue;
    const ours = environOf(pid).includes(`${RUN_MARK}=${run.mark}`) || (stat[3] === run.session && orphanOfRun(pid, run));
    const command = commandOf(pid);
    if (ours && !SHARED_DAEMONS.has(programOf(command))) found.push({ pid, command: command || `(pid ${pid})` });
  }
  return found;
}

/**
 * Waits up to `graceMs` for the run's processes to end (a container's cleanup may lag its test by
 * a moment), then answers those still alive and stops them, so they outlive the report by nothing.
 */
export async function collectLeftovers(run, graceMs = 10_000) {
  let left = leftoverProcesses(run);
  for (const started = Date.now(); left.length > 0 && Date.now() - started < graceMs; left = leftoverProcesses(run)) {
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return left;
}
