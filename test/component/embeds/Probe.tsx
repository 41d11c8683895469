// A tiny widget of our own that exercises everything the wrapper layer gives a real one:
// adopted CSS, the theme on :host, attributes, a downshift combobox with the shadow
// environment, a popup portalled into the shadow root, and cancelable events.
import { useCombobox } from 'downshift';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { defineWidget, type WidgetRenderProps } from '../../../src/web-components/defineWidget';
import { useShadowEnvironment } from '../../../src/web-components/environment';
import type { WidgetDefinition } from '../../../src/web-components/types';
import * as styles from './Probe.css';

export const probeDefinition = {
  tag: 'lime-probe',
  className: 'LimeProbeElement',
  bundle: 'lime-probe',
  description: 'Test probe.',
  attributes: [
    { name: 'placeholder', property: 'placeholder', type: 'string', description: 'Placeholder.' },
    { name: 'open', property: 'open', type: 'boolean', description: 'Boolean probe.' },
    { name: 'page-state', property: 'pageState', type: 'number', description: 'Number probe.' },
    { name: 'strings', property: 'strings', type: 'json', description: 'JSON probe.' },
    { name: 'api-url', property: 'apiUrl', type: 'string', description: 'Provider probe.' },
    { name: 'theme', property: 'theme', type: 'string', description: 'Theme.' },
  ],
  events: [
    { name: 'select', detail: 'string', cancelable: true, description: 'Chosen item.' },
    { name: 'ping', detail: 'null', description: 'Not cancelable.' },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

const items = ['alpha', 'beta', 'gamma'];

function ProbeWidget({ attributes, context }: WidgetRenderProps<typeof probeDefinition>) {
  const [navigatedTo, setNavigatedTo] = useState('');
  const environment = useShadowEnvironment(context.root);
  const { isOpen, getInputProps, getMenuProps, getItemProps, getLabelProps, highlightedIndex } = useCombobox({
    items,
    environment: environment as never,
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem && context.emit('select', selectedItem)) setNavigatedTo(selectedItem);
    },
  });
  return (
    <div className={styles.surface}>
      <label {...getLabelProps()}>Probe</label>
      <input {...getInputProps()} className={styles.input} placeholder={attributes.placeholder ?? 'Default placeholder'} />
      <output data-testid="state">
        {JSON.stringify({ open: attributes.open, pageState: attributes.pageState, strings: attributes.strings, apiUrl: attributes.apiUrl })}
      </output>
      <output data-testid="navigated">{navigatedTo}</output>
      <button type="button" onClick={() => context.emit('ping', null)}>
        Ping
      </button>
      {createPortal(
        <ul {...getMenuProps()} className={styles.menu}>
          {isOpen &&
            items.map((item, index) => (
              <li
                key={item}
                {...getItemProps({ item, index })}
                className={styles.item}
                data-highlighted={highlightedIndex === index || undefined}
              >
                {item}
              </li>
            ))}
        </ul>,
        context.portalContainer,
      )}
    </div>
  );
}

export const LimeProbeElement = defineWidget(probeDefinition, ProbeWidget);
