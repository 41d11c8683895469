import type { ComponentType } from 'react';
import type { AccountPanelBaseProps, HeadingLevel } from '../../components/AccountPanel';
import { defineWidget, type WidgetContext } from '../defineWidget';
import type { WidgetDefinition } from '../types';

const levels = new Set<number>([0, 2, 3, 4, 5, 6]);

/** The `heading-level` attribute as a panel prop (2 when absent or not a level). */
export function headingLevelOf(value: unknown): HeadingLevel {
  return typeof value === 'number' && levels.has(value) ? (value as HeadingLevel) : 2;
}

/** A string attribute as an optional prop: absent or empty leaves the panel's default. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/** The panel's own props, made from the element's attributes (by property) and its `emit`. */
export type PanelProps<P> = (
  attributes: Readonly<Record<string, unknown>>,
  emit: WidgetContext['emit'],
) => Omit<P, keyof AccountPanelBaseProps>;

/**
 * The element of one account panel (docs/embeds.md): the panel, its heading level from
 * `heading-level`, and what `props` makes of the panel's own attributes and events. The other
 * shared attributes (api-url, auth-url, auth-key, strings) are the wrapper's (defineWidget).
 */
export function definePanelElement<D extends WidgetDefinition, P extends AccountPanelBaseProps>(
  definition: D,
  Panel: ComponentType<P>,
  props: PanelProps<P>,
) {
  return defineWidget(definition, ({ attributes, context }) => {
    const values = attributes as Readonly<Record<string, unknown>>;
    const own = props(values, context.emit) as P;
    return <Panel {...own} headingLevel={headingLevelOf(values.headingLevel)} />;
  });
}
