import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../../../src/internal/createStore';

// Stores are made while components render; Next's cacheComponents prerender rejects
// Math.random() there, which @xstate/store calls for its session id (src/internal/createStore.ts).
describe('createStore', () => {
  it('makes a working store without calling Math.random, gives distinct session ids, and restores Math.random', () => {
    const random = vi.spyOn(Math, 'random');
    try {
      const make = () => createStore({ context: { count: 0 }, on: { inc: (c) => ({ count: c.count + 1 }) } });
      const a = make();
      const b = make();
      expect(random).not.toHaveBeenCalled();
      a.trigger.inc();
      expect(a.getSnapshot().context.count).toBe(1);
      expect(b.getSnapshot().context.count).toBe(0);
      expect(a.sessionId).not.toBe(b.sessionId);
      expect(Math.random).toBe(random);
    } finally {
      random.mockRestore();
    }
  });
});
