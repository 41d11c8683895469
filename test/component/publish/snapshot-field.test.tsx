import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SnapshotField } from '../../../reference-app/src/pages/publish/RuntimeSection';
import { emptyDraft, toServiceInput, withRuntime, type ServiceDraft } from '../../../reference-app/src/pages/publish/serviceDraft';
import { expectNoAxeViolations } from '../../setup/axe';

// A container service's runtime editor (Account → Hosting → Edit, the Runtime section):
// "Restore from a memory snapshot" is runtime.snapshot (docs/deploy.md, "Snapshot cold starts"),
// a labelled checkbox with its note, toggled with the keyboard, and what it says is what the
// save sends.

let latest: ServiceDraft | undefined;

function Harness({ initial, error }: { initial: ServiceDraft; error?: string }) {
  const [draft, setDraft] = useState(initial);
  latest = draft;
  return <SnapshotField editor={{ draft, setDraft, errors: error ? { 'runtime.snapshot': error } : {} }} />;
}

const containerDraft = (snapshot: boolean) =>
  withRuntime({ ...emptyDraft(), displayName: 'Sketch' }, { kind: 'container', image: 'docker.io/me/sketch:1', gpu: 'a100', snapshot });

describe('Restore from a memory snapshot', () => {
  it('is a labelled checkbox, on by default, with its note, and the keyboard turns it off and on', async () => {
    const { container } = render(<Harness initial={containerDraft(true)} />);
    const box = screen.getByRole('checkbox', { name: 'Restore from a memory snapshot' });
    expect(box).toHaveProperty('checked', true);
    const note = document.getElementById(box.getAttribute('aria-describedby')!);
    expect(note?.textContent).toMatch(/Applies on runners with snapshots on/);
    await expectNoAxeViolations(container);

    await userEvent.tab();
    expect(document.activeElement).toBe(box);
    await userEvent.keyboard(' ');
    expect(box).toHaveProperty('checked', false);
    expect(toServiceInput(latest!).input.runtime).toMatchObject({ type: 'container', snapshot: false });
    await userEvent.keyboard(' ');
    expect(box).toHaveProperty('checked', true);
    expect(toServiceInput(latest!).input.runtime).toMatchObject({ snapshot: true });
  });

  it('shows a stored opt-out unchecked, and the server’s error under it', () => {
    render(<Harness initial={containerDraft(false)} error="must be true or false" />);
    const box = screen.getByRole('checkbox', { name: 'Restore from a memory snapshot' });
    expect(box).toHaveProperty('checked', false);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must be true or false')).toBeTruthy();
  });
});
