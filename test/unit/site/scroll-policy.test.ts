import { describe, expect, it } from 'vitest';
import { positionsToKeep, restoresFirstLocation } from '../../../reference-app/src/layout/scrollPolicy';

// Issue 25, item 10: a page opened by URL starts at the top; a reload or a history step restores.

describe('scroll policy', () => {
  it('the first location restores after a reload or a history step, not when opened by URL', () => {
    expect(restoresFirstLocation('reload')).toBe(true);
    expect(restoresFirstLocation('back_forward')).toBe(true);
    expect(restoresFirstLocation('navigate')).toBe(false);
    expect(restoresFirstLocation(undefined)).toBe(false);
  });

  it('forgets only the first location’s position, and only for a URL opened anew', () => {
    const saved = { default: 1200, abc123: 640 };
    expect(positionsToKeep(saved, 'navigate')).toEqual({ abc123: 640 });
    expect(positionsToKeep(saved, 'back_forward')).toEqual(saved);
  });
});
