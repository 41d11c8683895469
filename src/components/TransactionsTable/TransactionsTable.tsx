import { useId } from 'react';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, formatCredits, formatDateTime, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import * as own from './TransactionsTable.css';
import { PAGE_SIZES, pageSizeValue, parsePageSize, type TransactionSortKey } from './tableModel';
import { useTransactionsTable, type UseTransactionsTableOptions } from './useTransactionsTable';

/** Props of `TransactionsTable`. */
export interface TransactionsTableProps extends AccountPanelBaseProps, UseTransactionsTableOptions {}

/**
 * The signed-in user's credit transactions: sortable by date, description or amount (the
 * headers are buttons and carry `aria-sort`), 10 rows per page by default with 25, 50, 100 or
 * all (spec tables).
 */
export function TransactionsTable({ headingLevel, className, ...options }: TransactionsTableProps) {
  const strings = useStrings().account;
  const table = useTransactionsTable(options);
  const sizeId = useId();
  const page = table.page;
  const columns: Array<{ key: TransactionSortKey; label: string; numeric?: boolean }> = [
    { key: 'created_at', label: strings.dateColumn },
    { key: 'description', label: strings.descriptionColumn },
    { key: 'amount', label: strings.creditsColumn, numeric: true },
  ];
  return (
    <AccountPanel
      name="transactions"
      title={strings.transactionsTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={table.feedback.feedback}
      onDismissFeedback={table.feedback.clear}
      busy={table.status === 'loading'}
    >
      {page && page.total === 0 && <p className={styles.muted}>{strings.noTransactions}</p>}
      {page && page.total > 0 && (
        <>
          <div className={styles.tableScroll}>
            <table className={styles.table}>
              <caption className={styles.visuallyHidden}>{strings.transactionsTitle}</caption>
              <thead>
                <tr>
                  {columns.map((column) => {
                    const active = table.sort.key === column.key;
                    return (
                      <th
                        key={column.key}
                        className={[styles.th, column.numeric ? styles.numeric : ''].join(' ')}
                        scope="col"
                        aria-sort={active ? table.sort.direction : undefined}
                      >
                        <button
                          type="button"
                          className={own.sortButton}
                          onClick={() => table.sortBy(column.key)}
                          data-active={active || undefined}
                        >
                          {column.label}
                          <span aria-hidden="true" className={own.sortIcon}>
                            {active ? (table.sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                          </span>
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {page.rows.map((t) => (
                  <tr key={t.id} data-kind={t.kind}>
                    <td className={styles.td}>{formatDateTime(t.created_at)}</td>
                    <td className={styles.td}>{t.description}</td>
                    <td className={[styles.td, styles.numeric].join(' ')}>{formatCredits(t.amount, { signed: true })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className={own.pager}>
            <label className={own.inline} htmlFor={sizeId}>
              {strings.rowsPerPage}
              <select
                id={sizeId}
                className={styles.input}
                value={pageSizeValue(table.pageSize)}
                onChange={(e) => table.setPageSize(parsePageSize(e.target.value))}
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={pageSizeValue(size)}>
                    {size === 'all' ? strings.all : size}
                  </option>
                ))}
              </select>
            </label>
            <span aria-live="polite">{formatString(strings.rowsShown, { from: page.from, to: page.to, total: page.total })}</span>
            <nav className={styles.row} aria-label={formatString(strings.pageOf, { page: page.page, pages: page.pages })}>
              <button
                type="button"
                className={styles.button({ tone: 'outline' })}
                onClick={() => table.goTo(page.page - 1)}
                disabled={page.page <= 1}
              >
                {strings.previousPage}
              </button>
              <span>{formatString(strings.pageOf, { page: page.page, pages: page.pages })}</span>
              <button
                type="button"
                className={styles.button({ tone: 'outline' })}
                onClick={() => table.goTo(page.page + 1)}
                disabled={page.page >= page.pages}
              >
                {strings.nextPage}
              </button>
            </nav>
          </div>
        </>
      )}
    </AccountPanel>
  );
}
