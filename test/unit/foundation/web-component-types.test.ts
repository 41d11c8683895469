import { describe, expect, it } from 'vitest';
import { widgetDefinitions } from '../../../src/web-components/definitions';
import { elementsDeclarations, interfaceName, reactDeclarations, vueDeclarations } from '../../../scripts/web-component-types.mjs';
import type { WidgetDefinition } from '../../../src/web-components/types';

// The element typings are generated from the definitions (scripts/web-component-types.mjs).
// A type name the declarations use but do not import would be `any` for every consumer with
// skipLibCheck (the default), unnoticed by the consumers' type check: checked here instead.
describe('web-component typings', () => {
  const elements = elementsDeclarations(widgetDefinitions);

  it('imports every named type its properties and event details use', () => {
    const imported = new Set([...elements.matchAll(/^import type \{ ([^}]+) \}/gm)].flatMap((m) => m[1]!.split(', ')));
    const declared = new Set([...elements.matchAll(/^export interface (\w+)/gm)].map((m) => m[1]!));
    const used = new Set(
      // Event map members (`"select": CustomEvent<…>;`) and properties (`apiUrl?: …;`).
      [...elements.matchAll(/^ {2}(?:"[^"]+": CustomEvent<(.+)>|\w+\?: (.+));$/gm)].flatMap(
        (m) => (m[1] ?? m[2])!.replace(/'[^']*'/g, '').match(/\b[A-Z]\w+\b/g) ?? [],
      ),
    );
    for (const name of used) {
      if (name === 'Record') continue;
      expect(imported.has(name) || declared.has(name), name).toBe(true);
    }
    expect(imported).toContain('Subscription');
  });

  it('maps every element by tag, with its event map, JSX and Vue entries', () => {
    for (const d of widgetDefinitions) {
      expect(elements).toContain(`"${d.tag}": ${interfaceName(d.tag)};`);
      for (const e of d.events) expect(elements).toContain(`"${e.name}": CustomEvent<${e.detail}>;`);
      expect(reactDeclarations(widgetDefinitions)).toContain(`"${d.tag}": LimeJsx<${interfaceName(d.tag)},`);
      expect(vueDeclarations(widgetDefinitions)).toContain(`"${d.tag}": DefineComponent<`);
    }
  });

  it('refuses a type name it cannot import', () => {
    const broken: WidgetDefinition = { ...widgetDefinitions[0]!, events: [{ name: 'x', detail: 'Mystery', description: 'x' }] };
    expect(() => elementsDeclarations([broken])).toThrow(/Mystery/);
  });
});
