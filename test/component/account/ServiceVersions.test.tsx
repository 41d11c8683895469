import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent as browserUser } from 'vitest/browser';
import { describe, expect, it, vi } from 'vitest';
import { ServiceVersions } from '../../../reference-app/src/pages/account/ServiceVersions';
import {
  createServiceVersionsClient,
  type ServiceVersion,
  type ServiceVersionsClient,
} from '../../../reference-app/src/pages/account/serviceVersions';
import { expectNoAxeViolations } from '../../setup/axe';
import { platformUrl, signedUpClient } from './harness';

// Account → Hosting → a container service's Versions (docs/publishing.md, "Versions and
// rollback"): the versions newest first with the serving one marked, "Roll back to this version"
// on earlier ones only, behind a confirmation reached with the keyboard, and the rollback's
// rollout followed until it serves or fails, said in a live region. The client against the real
// test server: its own route and the platform's words for an unknown service.

const digest = (c: string) => `sha256:${c.repeat(64)}`;
const ada = { id: 'u1', email: 'ada@example.com' };
const version = (id: string, d: string, outcome: ServiceVersion['outcome'], current: boolean, kind: ServiceVersion['kind'] = 'deploy') => ({
  id,
  image: `registry.example/ada/greeter@${d}`,
  digest: d,
  kind,
  deployed_at: `2026-12-06T0${id}:00:00Z`,
  deployed_by: ada,
  outcome,
  outcome_message: outcome === 'failed' ? 'The runner has no room for another 256 MB instance' : null,
  current,
});

/** A service with versions 1 (a…) and 2 (b…, serving); a rollback adds 3 whose rollout ends as `ends`. */
function fakeClient(ends: 'succeeded' | 'failed') {
  let versions: ServiceVersion[] = [version('2', digest('b'), 'succeeded', true), version('1', digest('a'), 'succeeded', false)];
  let reads = 0;
  const rollback = vi.fn(async (_service: string, d: string) => {
    const added = version('3', d, 'pending', false, 'rollback');
    versions = [added, ...versions];
    reads = 0;
    return { ok: true as const, status: 200, data: added };
  });
  const client: ServiceVersionsClient = {
    async list() {
      // The rollout ends on the second read after the rollback.
      if (versions[0]?.id === '3' && ++reads >= 2) {
        const done = ends === 'succeeded';
        versions = versions.map((v) =>
          v.id === '3'
            ? { ...v, outcome: ends, current: done, outcome_message: done ? null : 'The runner has no room for another 256 MB instance' }
            : { ...v, current: done ? false : v.current },
        );
      }
      return { ok: true as const, status: 200, data: { versions, next_cursor: null } };
    },
    rollback,
  };
  return Object.assign(client, { rollback });
}

describe('ServiceVersions', () => {
  it('lists the versions, and rolls back to an earlier one after a confirmation, with the keyboard', async () => {
    const client = fakeClient('succeeded');
    const { container } = render(<ServiceVersions client={client} serviceId="greeter-1" name="Greeter" />);
    const table = await screen.findByRole('table', { name: 'Versions of Greeter, newest first' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent(/bbbbbbbbbbbb.*ada@example\.com.*Served.*Serving now/);
    expect(rows[2]).toHaveTextContent(/aaaaaaaaaaaa.*ada@example\.com.*Served/);
    // Only the earlier version has the button; the serving one says so instead.
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    const button = within(rows[2]!).getByRole('button', { name: 'Roll back to this version: Greeter aaaaaaaaaaaa' });
    await expectNoAxeViolations(container);

    button.focus();
    await browserUser.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Roll Greeter back to version aaaaaaaaaaaa?' });
    expect(dialog).toHaveTextContent('by ada@example.com');
    // The safe answer has the focus; Escape changes nothing.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await browserUser.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(client.rollback).not.toHaveBeenCalled();

    button.focus();
    await browserUser.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    await browserUser.keyboard('{Tab}');
    expect(screen.getByRole('button', { name: 'Roll back' })).toHaveFocus();
    await browserUser.keyboard('{Enter}');
    expect(client.rollback).toHaveBeenCalledWith('greeter-1', digest('a'));

    // While it rolls out: the new version shows, and no second rollback can start.
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/aaaaaaaaaaaa \(rollback\).*Waiting for the runner/);
    expect(screen.getByRole('button', { name: 'Roll back to this version: Greeter aaaaaaaaaaaa' })).toBeDisabled();
    // Then its outcome, said in the live region, and it is the one serving.
    await waitFor(() => expect(screen.getByText('Rolled back: version aaaaaaaaaaaa serves Greeter.')).toHaveAttribute('role', 'status'), {
      timeout: 10_000,
    });
    const after = within(table).getAllByRole('row');
    expect(after[1]).toHaveTextContent(/aaaaaaaaaaaa \(rollback\).*Served.*Serving now/);
    // b… is earlier now: it can be rolled back to; the older a… is the image serving, so it cannot.
    expect(within(after[2]!).getByRole('button', { name: 'Roll back to this version: Greeter bbbbbbbbbbbb' })).toBeEnabled();
    expect(within(after[3]!).queryByRole('button')).toBeNull();
    await expectNoAxeViolations(container);
  });

  it('says when the rollback’s rollout failed, and when the platform refused it', async () => {
    const client = fakeClient('failed');
    render(<ServiceVersions client={client} serviceId="greeter-1" name="Greeter" />);
    const button = await screen.findByRole('button', { name: 'Roll back to this version: Greeter aaaaaaaaaaaa' });
    button.focus();
    await browserUser.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    await browserUser.keyboard('{Tab}{Enter}');
    await screen.findByText(
      'The rollback to version aaaaaaaaaaaa did not serve: The runner has no room for another 256 MB instance. The previous version still serves.',
      undefined,
      { timeout: 10_000 },
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/Failed: The runner has no room/);
    expect(rows[2]).toHaveTextContent('Serving now');

    const refusing: ServiceVersionsClient = {
      list: fakeClient('failed').list,
      rollback: async () => ({
        ok: false,
        status: 422,
        statusText: 'Unprocessable Entity',
        url: '',
        error: "The image ada/greeter@aaaaaaaaaaaa… is no longer in the platform's registry (it was deleted)",
      }),
    };
    const { unmount } = render(<ServiceVersions client={refusing} serviceId="greeter-1" name="Other" />);
    const other = await screen.findByRole('button', { name: 'Roll back to this version: Other aaaaaaaaaaaa' });
    other.focus();
    await browserUser.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    await browserUser.keyboard('{Tab}{Enter}');
    await screen.findByText(
      "The rollback was refused: The image ada/greeter@aaaaaaaaaaaa… is no longer in the platform's registry (it was deleted)",
    );
    unmount();
  });

  it('calls the platform’s versions route (the real test server)', async () => {
    const { client: auth } = await signedUpClient('service-versions');
    const token = (await auth.getSession()).data.session!.access_token;
    const client = createServiceVersionsClient({ baseURL: platformUrl(), getAccessToken: () => token });
    expect(await client.list('no-such-service')).toMatchObject({ ok: false, status: 404, error: 'No service no-such-service' });
    expect(await client.rollback('no-such-service', digest('a'))).toMatchObject({ ok: false, status: 404 });
    render(<ServiceVersions client={client} serviceId="no-such-service" name="Gone" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The versions could not be loaded');
  });
});
