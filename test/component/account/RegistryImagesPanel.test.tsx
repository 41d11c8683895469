import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { userEvent as browserUser } from 'vitest/browser';
import { describe, expect, it, vi } from 'vitest';
import { RegistryImagesPanel } from '../../../reference-app/src/pages/account/RegistryImagesPanel';
import {
  createRegistryImagesClient,
  type RegistryImages,
  type RegistryImagesClient,
} from '../../../reference-app/src/pages/account/registryImages';
import { expectNoAxeViolations } from '../../setup/axe';
import { platformUrl, signedUpClient } from './harness';

// Account → Hosting → Your images (docs/publishing.md, "Your images"): the images listed with the
// storage used, Delete behind a confirmation reached with the keyboard (the browser's own keys:
// Escape on a native dialog), an image a service uses
// not deletable (its button says why), and no section at all on a platform without a registry
// (the real test server runs none).

const digest = (c: string) => `sha256:${c.repeat(64)}`;

function fakeClient(): RegistryImagesClient & { remove: ReturnType<typeof vi.fn> } {
  let listing: RegistryImages = {
    host: '127.0.0.1:5000',
    namespace: 'ada-0123456789ab',
    plan: 'free',
    used_bytes: 3 * 1024 * 1024,
    quota_bytes: 2048 * 1024 * 1024,
    garbage_collection: { pending: false },
    repositories: [
      {
        name: 'ocr',
        images: [
          {
            digest: digest('b'),
            tags: ['2', 'latest'],
            size_bytes: 2 * 1024 * 1024,
            pushed_at: '2026-12-06T08:00:00Z',
            used_by: [{ id: 's1', name: 'Reader' }],
          },
          { digest: digest('a'), tags: ['1'], size_bytes: 1024 * 1024, pushed_at: '2026-12-05T08:00:00Z', used_by: [] },
        ],
      },
    ],
  };
  const remove = vi.fn(async (name: string, gone: string) => {
    listing = {
      ...listing,
      used_bytes: 2 * 1024 * 1024,
      garbage_collection: { pending: true },
      repositories: listing.repositories.map((r) => (r.name === name ? { ...r, images: r.images.filter((i) => i.digest !== gone) } : r)),
    };
    return { ok: true as const, status: 200, data: { deleted_digests: [gone] } };
  });
  return { list: async () => ({ ok: true as const, status: 200, data: listing }), remove };
}

describe('RegistryImagesPanel', () => {
  it('lists the images with the storage used and deletes one after a confirmation, with the keyboard', async () => {
    const client = fakeClient();
    const { container } = render(<RegistryImagesPanel client={client} />);
    const table = await screen.findByRole('table', { name: "Your images in the platform's registry" });
    expect(screen.getByTestId('registry-usage')).toHaveTextContent('127.0.0.1:5000/ada-0123456789ab: 3 MB of 2,048 MB used (free plan).');
    expect(within(table).getAllByRole('row')).toHaveLength(3);

    // An image a service uses: its Delete is disabled and says which service.
    const used = screen.getByRole('button', { name: 'Delete ocr:2, latest' });
    expect(used).toBeDisabled();
    expect(document.getElementById(used.getAttribute('aria-describedby')!)).toHaveTextContent('Used by Reader');
    await expectNoAxeViolations(container);

    const unused = screen.getByRole('button', { name: 'Delete ocr:1' });
    unused.focus();
    await browserUser.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete ocr:1?' });
    // The safe answer has the focus; Escape keeps the image.
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await browserUser.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(client.remove).not.toHaveBeenCalled();

    unused.focus();
    await browserUser.keyboard('{Enter}');
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete the image' }));
    expect(client.remove).toHaveBeenCalledWith('ocr', digest('a'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete ocr:1' })).toBeNull());
    expect(screen.getByTestId('registry-usage')).toHaveTextContent(
      '2 MB of 2,048 MB used (free plan). The space of deleted images is being freed.',
    );
  });

  it('shows nothing on a platform that runs no registry', async () => {
    const { client: auth } = await signedUpClient('registry-images');
    const token = (await auth.getSession()).data.session!.access_token;
    const client = createRegistryImagesClient({ baseURL: platformUrl(), getAccessToken: () => token });
    const answer = await client.list();
    expect(answer).toMatchObject({ ok: false, status: 404, error: 'This platform runs no registry (container hosting is off)' });
    const { container } = render(<RegistryImagesPanel client={client} />);
    await waitFor(() => expect(container).toBeEmptyDOMElement());
  });
});
