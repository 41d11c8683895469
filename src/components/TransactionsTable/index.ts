export { TransactionsTable } from './TransactionsTable';
export type { TransactionsTableProps } from './TransactionsTable';
