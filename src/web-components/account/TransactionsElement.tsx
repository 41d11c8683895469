import { TransactionsTable } from '../../components/TransactionsTable';
import { parsePageSize } from '../../components/TransactionsTable/tableModel';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { transactionsDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './definePanelElement';

function Widget({ attributes: a }: WidgetRenderProps<typeof transactionsDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <TransactionsTable
      headingLevel={headingLevelOf(attributes.headingLevel)}
      key={String(attributes.pageSize)}
      defaultPageSize={parsePageSize(String(attributes.pageSize ?? '10'))}
    />
  );
}

/** The `<lime-transactions>` element: `TransactionsTable` as a custom element (attributes and events in docs/embeds.md). */
export const LimeTransactionsElement = /* @__PURE__ */ defineWidget(transactionsDefinition, Widget);
