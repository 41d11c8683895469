import r2wc from '@r2wc/react-to-web-component';
import { Component, useCallback, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { PlatformProvider, type StringOverrides } from '../config';
import { mergeStrings } from '../config/strings';
import * as styles from './embed.css';
import { adoptStyles, releaseStyles } from './styles';
import type { AttributeDefinition, AttributeValues, WidgetDefinition } from './types';

/** What the wrapper gives a widget rendered inside a custom element. */
export interface WidgetContext {
  /** The custom element. */
  host: HTMLElement;
  /** Its open shadow root. */
  root: ShadowRoot;
  /** Popups render here, inside the shadow root, so our adopted CSS applies to them. */
  portalContainer: HTMLElement;
  /**
   * Dispatches a bubbling, composed CustomEvent from the host. Returns `false` when a listener
   * called `preventDefault()` on a cancelable event (the caller then skips its default action).
   */
  emit: (name: string, detail?: unknown) => boolean;
}

export interface WidgetRenderProps<D extends WidgetDefinition> {
  attributes: AttributeValues<D>;
  context: WidgetContext;
}

const PROPS = Symbol.for('r2wc.props');
const RENDER = Symbol.for('r2wc.render');

/** The part of r2wc's element we rely on (its props bag and render trigger are `Symbol.for` keys). */
interface R2wcInternals extends HTMLElement {
  [PROPS]: Record<string, unknown> & { update?: (raw: Record<string, unknown>) => void };
  [RENDER](): void;
  connectedCallback(): void;
  disconnectedCallback(): void;
}

function parseAttribute(definition: AttributeDefinition, raw: string | undefined, tag: string): unknown {
  switch (definition.type) {
    case 'boolean':
      // HTML boolean attribute: present means true (`open`, `open=""`), except the literal
      // "false" (so a default-true option can be switched off). Absent leaves the default.
      return raw === undefined ? undefined : raw !== 'false';
    case 'number': {
      if (raw === undefined || raw.trim() === '') return undefined;
      const n = Number(raw);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'json':
      if (raw === undefined || raw.trim() === '') return undefined;
      try {
        return JSON.parse(raw) as unknown;
      } catch (cause) {
        if (process.env.NODE_ENV !== 'production') {
          console.warn(`[limelight] <${tag}> ignored attribute ${definition.name}: not valid JSON`, cause);
        }
        return undefined;
      }
    default:
      return raw;
  }
}

export interface DefineWidgetOptions<D extends WidgetDefinition> {
  /**
   * Strings that attributes stand for (e.g. `placeholder` -> `search.placeholder`), applied over
   * the `strings` attribute.
   */
  strings?: (attributes: AttributeValues<D>) => StringOverrides | undefined;
}

function mergeOverrides(base: StringOverrides | undefined, over: StringOverrides | undefined): StringOverrides | undefined {
  if (!over) return base;
  if (!base) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [group, values] of Object.entries(over)) {
    const previous = out[group];
    out[group] = previous && typeof previous === 'object' && values && typeof values === 'object' ? { ...previous, ...values } : values;
  }
  return out as StringOverrides;
}

/** A page's `strings` attribute of the wrong shape is ignored (with a warning), not fatal. */
function checkedOverrides(overrides: StringOverrides | undefined, tag: string): StringOverrides | undefined {
  if (!overrides) return undefined;
  try {
    mergeStrings(overrides);
    return overrides;
  } catch (error) {
    if (process.env.NODE_ENV !== 'production') console.warn(`[limelight] <${tag}> ignored attribute strings:`, error);
    return undefined;
  }
}

/**
 * A widget that throws (e.g. `<lime-auth-dialog>` without `auth-key`) logs one error naming the
 * element and renders nothing, instead of breaking the host page's script. It tries again when
 * an attribute changes (`resetKey`).
 */
class WidgetErrorBoundary extends Component<{ tag: string; resetKey: string; children?: ReactNode }, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };
  static getDerivedStateFromProps(props: { resetKey: string }, state: { failed: boolean; key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(`[limelight] <${this.props.tag}> could not render:`, error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Builds the custom element class for one widget over @r2wc/react-to-web-component.
 *
 * r2wc provides the element life cycle (shadow root, React root mounted on connect and
 * unmounted on disconnect, attribute observation). On top of it this adds what every widget
 * needs: attribute parsing that follows HTML semantics (a removed attribute resets the prop, a
 * present boolean attribute is true), property accessors that reflect to attributes, our CSS
 * adopted into the shadow root, a `PlatformProvider` fed from the attributes, a portal
 * container inside the shadow root, and cancelable composed events. Widgets with a combobox
 * add the downshift environment for the shadow root with `useShadowEnvironment` (environment.ts),
 * so the others do not carry it.
 * Registration is left to `define.ts`.
 */
export function defineWidget<D extends WidgetDefinition>(
  definition: D,
  Render: ComponentType<WidgetRenderProps<D>>,
  options: DefineWidgetOptions<D> = {},
): CustomElementConstructor & { readonly definition: D } {
  const byName = new Map(definition.attributes.map((a) => [a.name, a]));
  const cancelable = new Set(definition.events.filter((e) => e.cancelable).map((e) => e.name));

  type RawProps = Record<string, string | undefined> & { container?: ShadowRoot };

  function Shell(initial: RawProps) {
    const root = initial.container!;
    const host = root.host as R2wcInternals;
    // Later attribute values come through this setter (see the element's RENDER below).
    const [raw, setRaw] = useState(initial);
    host[PROPS].update = setRaw as (raw: Record<string, unknown>) => void;
    const [portalContainer, setPortalContainer] = useState<HTMLElement | null>(null);
    const emit = useCallback(
      (name: string, detail?: unknown) =>
        host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: cancelable.has(name) })),
      [host],
    );

    // Parse once per raw value so objects (strings table) keep their identity between renders.
    const rawKey = definition.attributes.map((a) => raw[a.property] ?? '\u0000').join('\u0001');
    const attributes = useMemo(() => {
      const out: Record<string, unknown> = {};
      for (const a of definition.attributes) out[a.property] = parseAttribute(a, raw[a.property], definition.tag);
      return out as AttributeValues<D>;
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [rawKey]);
    const a = attributes as Record<string, unknown>;
    const strings = useMemo(
      () => checkedOverrides(mergeOverrides(a.strings as StringOverrides | undefined, options.strings?.(attributes)), definition.tag),
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [attributes],
    );

    const context = useMemo<WidgetContext | null>(
      () => (portalContainer ? { host, root, portalContainer, emit } : null),
      [host, root, portalContainer, emit],
    );

    return (
      <div className={styles.root} data-lime-widget={definition.tag}>
        <PlatformProvider
          apiUrl={(a.apiUrl as string | undefined) || undefined}
          authUrl={(a.authUrl as string | undefined) || undefined}
          authKey={a.authKey as string | undefined}
          strings={strings}
          // The theme is applied on :host by CSS (embed.css.ts); nothing inside sets tokens.
          theme="inherit"
        >
          {context && (
            <WidgetErrorBoundary tag={definition.tag} resetKey={rawKey}>
              <Render attributes={attributes} context={context} />
            </WidgetErrorBoundary>
          )}
        </PlatformProvider>
        <div className={styles.portal} ref={setPortalContainer} data-lime-portal="" />
      </div>
    );
  }
  // For React DevTools; the production bundles do without it.
  if (process.env.NODE_ENV !== 'production') Shell.displayName = `${definition.className}Shell`;

  // On a server (SSR, a Node script) there is no HTMLElement to extend: importing an element
  // module gives a class that is never registered (define.ts checks for customElements).
  if (typeof HTMLElement === 'undefined')
    return class {
      static readonly definition = definition;
    } as never;

  const Base = r2wc(Shell as ComponentType<RawProps>, {
    shadow: 'open',
    props: Object.fromEntries(definition.attributes.map((a) => [a.property, 'string'])) as Record<string, 'string'>,
  }) as unknown as new () => R2wcInternals;

  class WidgetElement extends Base {
    static readonly definition = definition;

    constructor() {
      super();
      adoptStyles(this.shadowRoot!);
    }

    // The root is rendered once per connection; a mounted Shell takes later attribute values
    // as state. The script-tag bundles run on preact/compat (docs/embeds.md), whose `useId`
    // counts per root and loses its count once the root has been rendered a third time; the
    // attributes arrive one callback at a time, so every element was rendered four or five
    // times before anyone clicked, and what mounted later reused ids the widget already had (in
    // <lime-api-keys> the sign-in overlay's e-mail label pointed at the panel's heading).
    override [RENDER]() {
      const update = this[PROPS].update;
      if (update) update({ ...this[PROPS] });
      else super[RENDER]();
    }

    override connectedCallback() {
      adoptStyles(this.shadowRoot!);
      super.connectedCallback();
    }

    override disconnectedCallback() {
      super.disconnectedCallback();
      // Unmounted: the next connection mounts a new Shell.
      delete this[PROPS].update;
      releaseStyles(this.shadowRoot!);
    }

    // r2wc ignores removed and empty attributes; HTML semantics need both.
    attributeChangedCallback(name: string, _old: string | null, value: string | null) {
      const attribute = byName.get(name);
      if (!attribute) return;
      this[PROPS][attribute.property] = value ?? undefined;
      this[RENDER]();
    }
  }

  // Properties reflect to attributes, the way built-in elements do.
  for (const attribute of definition.attributes) {
    Object.defineProperty(WidgetElement.prototype, attribute.property, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return parseAttribute(attribute, this.getAttribute(attribute.name) ?? undefined, definition.tag);
      },
      set(this: HTMLElement, value: unknown) {
        if (value === undefined || value === null || value === false) this.removeAttribute(attribute.name);
        else if (value === true) this.setAttribute(attribute.name, '');
        else
          this.setAttribute(attribute.name, attribute.type === 'json' && typeof value !== 'string' ? JSON.stringify(value) : String(value));
      },
    });
  }

  Object.defineProperty(WidgetElement, 'name', { value: definition.className });
  return WidgetElement as unknown as CustomElementConstructor & { readonly definition: D };
}
