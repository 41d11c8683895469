import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { PlatformProvider } from '@limelight/widgets/platform';
import { ServiceHeader } from '../../../reference-app/src/pages/catalogue/ServiceView';

// The facts under a service's name (issue 50, item 7): a new service without categories or
// models used says nothing of them, where it said "Categories unknown / Models used unknown".

const fresh: ModelDescriptor = {
  id: 'svc-new',
  display_name: 'Fresh Service',
  provider: 'limelight',
  owner_name: 'Ada',
  created_at: '2026-12-01T10:00:00Z',
  n_usages: 0,
  model_category: [],
  used_models: [],
};

function renderHeader(model: ModelDescriptor) {
  return render(
    <PlatformProvider apiUrl="http://localhost:3999" authKey="anon-test-key">
      <ServiceHeader
        model={model}
        categories={[{ id: 'text-to-image', title: 'Text to image', input_domain: ['text'], output_domain: ['image'] }]}
      />
    </PlatformProvider>,
  );
}

describe('ServiceHeader facts', () => {
  it('a new service lists no categories and no models used, and never says "unknown" of them', () => {
    renderHeader(fresh);
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    expect(terms).toEqual(['Provider', 'Owner', 'Runs', 'Published']);
    expect(document.querySelector('dl')?.textContent).not.toMatch(/unknown/i);
  });

  it('a service with categories and models used lists them', () => {
    renderHeader({ ...fresh, model_category: ['text-to-image'], used_models: ['stable-diffusion-xl'] });
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual([
      'Provider',
      'Owner',
      'Runs',
      'Published',
      'Categories',
      'Models used',
    ]);
    expect(screen.getByText('stable-diffusion-xl')).toBeInTheDocument();
    expect(screen.getByText(/Text to image/)).toBeInTheDocument();
  });
});
