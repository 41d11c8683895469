import { beforeAll, describe, expect, it } from 'vitest';
import { ROLLOUT_LOG_LINES } from '../../../reference-app/server/hosting';
// reaches inside: stores log lines and rollouts as the runner does, on a server without an engine
import { insertLogLines, updateHostingState } from '../../../reference-app/server/hosting/queries';
import { confirmedUser, rawApi, signedIn } from '../helpers';
import { recordingPlatform } from '../recordingPlatform';

// GET /v1/model_management/services/{id}/rollout (issue 49, item 8): what `limelight deploy`
// prints while it waits, the rollout and the deployment's log lines since a cursor, to the owner
// only and at most ROLLOUT_LOG_LINES per answer. On a real server without an engine: lines and
// rollouts are stored as the runner stores them (insertLogLines, updateHostingState, as
// hosting/deploymentLogs.ts and hosting/containerHosting.ts do).

const platform = recordingPlatform();

interface Progress {
  status: string;
  message: string | null;
  instances: number;
  rollout: { image: string; status: string; message: string } | null;
  lines: { at: string; stream: string; instance: string; text: string }[];
  cursor: string;
  more: boolean;
}

const image = `docker.io/me/echo@sha256:${'c4'.repeat(32)}`;
let id: string;

beforeAll(async () => {
  const created = await rawApi(platform.server, 'POST', '/v1/model_management/services', {
    token: platform.token,
    body: {
      display_name: 'Rollout progress echo',
      visibility: 'public',
      runtime: { type: 'container', image, gpu: platform.gpu, min_instances: 0, max_instances: 1, idle_timeout_s: 60 },
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  id = String(created.json.id);
});

const progress = async (since?: string, as = platform.token) =>
  rawApi(platform.server, 'GET', `/v1/model_management/services/${id}/rollout${since === undefined ? '' : `?since=${since}`}`, {
    token: as,
  });

const write = (texts: string[], stream: 'stdout' | 'stderr' | 'runner' = 'stdout', jobId: string | null = null) =>
  insertLogLines(
    platform.server.platform.database.db,
    texts.map((text) => ({
      deployment_id: id,
      job_id: jobId,
      at: new Date(),
      stream,
      instance: stream === 'runner' ? '' : 'c0ffee',
      line: text,
    })),
    null,
  );

describe('a rollout followed from a cursor', () => {
  it('answers the state and only the lines written after the cursor, in order', async () => {
    const first = await progress();
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const start = first.json as unknown as Progress;
    expect(start.rollout).toMatchObject({ image, status: 'pending' });

    await updateHostingState(platform.server.platform.database.db, id, {
      status: 'deploying',
      message: `Pulling ${image}`,
      instances: 0,
      base_url: null,
      rollout_image: image,
      rollout_status: 'in_progress',
      rollout_message: `Pulling ${image}`,
    });
    await write(['pull 812 ms'], 'runner');
    await write(['loading the model', 'model loaded']);
    // A job's copy of a line is not the deployment's: not repeated here.
    await write(['during a job'], 'stdout', '9b2c1a54-0000-4000-8000-00000000abcd');
    const next = (await progress(start.cursor)).json as unknown as Progress;
    expect(next).toMatchObject({ status: 'deploying', message: `Pulling ${image}`, rollout: { status: 'in_progress' }, more: false });
    expect(next.lines.map((l) => [l.stream, l.text])).toEqual([
      ['runner', 'pull 812 ms'],
      ['stdout', 'loading the model'],
      ['stdout', 'model loaded'],
    ]);
    expect(next.lines[1]!.instance).toBe('c0ffee');

    // Nothing new: no lines, the same cursor.
    const idle = (await progress(next.cursor)).json as unknown as Progress;
    expect(idle.lines).toEqual([]);
    expect(idle.cursor).toBe(next.cursor);
    await write(['Instance ready in 950 ms (health 200)'], 'runner');
    const ready = (await progress(next.cursor)).json as unknown as Progress;
    expect(ready.lines.map((l) => l.text)).toEqual(['Instance ready in 950 ms (health 200)']);
  });

  it('is bounded: at most ROLLOUT_LOG_LINES lines an answer, `more` says to ask again', async () => {
    const cursor = ((await progress()).json as unknown as Progress).cursor;
    await write(Array.from({ length: ROLLOUT_LOG_LINES + 30 }, (_, i) => `line ${i}`));
    const page = (await progress(cursor)).json as unknown as Progress;
    expect(page.lines).toHaveLength(ROLLOUT_LOG_LINES);
    expect(page.more).toBe(true);
    expect(page.lines[0]!.text).toBe('line 0');
    const rest = (await progress(page.cursor)).json as unknown as Progress;
    expect(rest.lines.map((l) => l.text)).toEqual(Array.from({ length: 30 }, (_, i) => `line ${ROLLOUT_LOG_LINES + i}`));
    expect(rest.more).toBe(false);
    // Without a cursor: the last lines, bounded too.
    const tail = (await progress()).json as unknown as Progress;
    expect(tail.lines).toHaveLength(ROLLOUT_LOG_LINES);
    expect(tail.lines.at(-1)!.text).toBe(`line ${ROLLOUT_LOG_LINES + 29}`);
  });

  it('is the owner’s only, and a bad cursor is said', async () => {
    const other = (await signedIn(platform.server, await confirmedUser(platform.server, 'rollout-other'))).session.access_token;
    // The service is public, but its log lines are not: answered as a missing service.
    const refused = await progress(undefined, other);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.json)).not.toContain('model loaded');
    const missing = await rawApi(platform.server, 'GET', '/v1/model_management/services/no-such-service/rollout', {
      token: platform.token,
    });
    expect(missing.status).toBe(404);
    const bad = await progress('yesterday');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json)).toContain('since');
    const anonymous = await rawApi(platform.server, 'GET', `/v1/model_management/services/${id}/rollout`);
    expect(anonymous.status).toBe(401);
  });
});
