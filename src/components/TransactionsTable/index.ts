export { TransactionsTable } from './TransactionsTable';
export type { TransactionsTableProps } from './TransactionsTable';
export { useTransactionsTable } from './useTransactionsTable';
export type { UseTransactionsTableOptions } from './useTransactionsTable';
export { sortTransactions, nextSort, paginate, parsePageSize, DEFAULT_SORT, PAGE_SIZES, DEFAULT_PAGE_SIZE } from './tableModel';
export type { TransactionSort, TransactionSortKey, SortDirection, Page, PageSize } from './tableModel';
