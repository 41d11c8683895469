import { describe, expect, it } from 'vitest';
import { createNavigationEvent } from '../../../src/internal/navigationEvent';

describe('createNavigationEvent', () => {
  it('carries href, source and the extra fields; preventDefault is remembered', () => {
    const event = createNavigationEvent('/APIs/service/a/b', 'keyboard', { query: 'flux' });
    expect(event).toMatchObject({ href: '/APIs/service/a/b', source: 'keyboard', query: 'flux', defaultPrevented: false });
    event.preventDefault();
    expect(event.defaultPrevented).toBe(true);
  });

  it('each event has its own flag', () => {
    const a = createNavigationEvent('/a', 'pointer', {});
    const b = createNavigationEvent('/b', 'pointer', {});
    a.preventDefault();
    expect(b.defaultPrevented).toBe(false);
  });
});
