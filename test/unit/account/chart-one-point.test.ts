import { describe, expect, it } from 'vitest';
import { chartGeometry, compactNumber } from '../../../src/components/UsageChart/chartModel';

// The dashboard's charts readable with one data point (issue 39, item 4): a new account's first
// month of credits spent is one small value; its axis used to read 0, 0, 0, 0 and the lone bar
// carried no number.

describe('a chart of one data point', () => {
  it('says its value beside the point and labels its axis with distinct ticks', () => {
    for (const kind of ['bar', 'line'] as const) {
      const geometry = chartGeometry([{ label: '2026-11', value: 0.0286 }], kind);
      expect(geometry.single).toBe(true);
      const texts = geometry.ticks.map((t) => t.text);
      expect(new Set(texts).size, texts.join(' ')).toBe(texts.length);
      expect(texts).toContain('0.03');
      expect(geometry.xTicks.map((t) => t.text)).toHaveLength(1);
    }
  });

  it('more points are not single; whole-number axes stay compact', () => {
    const geometry = chartGeometry(
      [
        { label: '2026-10', value: 1200 },
        { label: '2026-11', value: 3400 },
      ],
      'bar',
    );
    expect(geometry.single).toBe(false);
    expect(geometry.ticks.map((t) => t.text)).toContain('1K');
    expect(compactNumber(0.015, 0.005)).toBe('0.015');
    expect(compactNumber(2500)).toBe('2.5K');
  });
});
