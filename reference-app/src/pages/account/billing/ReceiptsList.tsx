import { Fragment, useCallback, useState } from 'react';
import { useApiResource, usePlatformClients } from '@limelight/widgets';
import type { Receipt } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import { visuallyHidden } from '@limelight/widgets/theme/a11y.css';
import * as page from '../../page.css';
import * as styles from '../account.css';
import * as billing from './billing.css';
import { formatMoney, receiptDocument, receiptFileName, receiptStatusText } from './billingText';

const COLUMNS = ['Date', 'Description', 'Amount', 'Status', 'Receipt'];

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * The user's receipts (docs/payments.md, "Receipts"): one row per settled payment or plan change,
 * each opening to the receipt itself with a download of it as an HTML file.
 */
export function ReceiptsList({ refreshKey }: { refreshKey?: unknown }) {
  const { payment } = usePlatformClients();
  const strings = useStrings();
  // refreshKey reloads the list after a payment was confirmed on this page.
  const load = useCallback(() => (void refreshKey, payment.receipts()), [payment, refreshKey]);
  const receipts = useApiResource(load, { onError: () => notify.warning(strings.account.loadProblem) });
  const [open, setOpen] = useState<string | null>(null);
  const list = receipts.data ?? [];
  const brand = strings.common.brand;

  return (
    <section className={styles.panel} aria-labelledby="billing-receipts" aria-busy={receipts.loading}>
      <h2 id="billing-receipts" className={styles.panelTitle}>
        Receipts
      </h2>
      {receipts.data && list.length === 0 && <p className={page.muted}>No payments yet.</p>}
      {list.length > 0 && (
        <div className={styles.tableScroll}>
          <table className={page.table} data-testid="receipts">
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column} className={page.th} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.map((receipt) => (
                <Fragment key={receipt.id}>
                  <tr>
                    <td className={page.td}>{formatDate(receipt.date)}</td>
                    <th className={[page.td, styles.rowHeader].join(' ')} scope="row">
                      {receipt.description}
                    </th>
                    <td className={page.td}>{formatMoney(receipt.amount_minor, receipt.currency)}</td>
                    <td className={page.td}>{receiptStatusText(receipt)}</td>
                    <td className={page.td}>
                      <button
                        type="button"
                        className={page.button({ tone: 'outline' })}
                        aria-expanded={open === receipt.id}
                        aria-controls={`receipt-${receipt.id}`}
                        onClick={() => setOpen(open === receipt.id ? null : receipt.id)}
                      >
                        View<span className={visuallyHidden}> receipt {receipt.id}</span>
                      </button>
                    </td>
                  </tr>
                  {open === receipt.id && (
                    <tr id={`receipt-${receipt.id}`}>
                      <td className={page.td} colSpan={5}>
                        <ReceiptView receipt={receipt} brand={brand} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ReceiptView({ receipt, brand }: { receipt: Receipt; brand: string }) {
  const document = receiptDocument(receipt, { brand, formatDate });
  return (
    <div data-testid="receipt-view">
      <dl className={billing.receipt}>
        <dt>Receipt number</dt>
        <dd>{receipt.id}</dd>
        <dt>Date</dt>
        <dd>{formatDate(receipt.date)}</dd>
        <dt>Description</dt>
        <dd>{receipt.description}</dd>
        <dt>Amount</dt>
        <dd>{formatMoney(receipt.amount_minor, receipt.currency)}</dd>
        <dt>Status</dt>
        <dd>{receiptStatusText(receipt)}</dd>
      </dl>
      <a href={`data:text/html;charset=utf-8,${encodeURIComponent(document)}`} download={receiptFileName(receipt)}>
        Download receipt {receipt.id}
      </a>
    </div>
  );
}
