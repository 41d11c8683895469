import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize } from '../../catalogue/constants';
import type { Transaction } from '../../api/types';

export { PAGE_SIZES, DEFAULT_PAGE_SIZE, type PageSize };

export type TransactionSortKey = 'created_at' | 'description' | 'amount';
export type SortDirection = 'ascending' | 'descending';
export interface TransactionSort {
  key: TransactionSortKey;
  direction: SortDirection;
}

/** Newest first, as a statement reads. */
export const DEFAULT_SORT: TransactionSort = { key: 'created_at', direction: 'descending' };

const compareBy: Record<TransactionSortKey, (a: Transaction, b: Transaction) => number> = {
  created_at: (a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime(),
  description: (a, b) => a.description.localeCompare(b.description, undefined, { sensitivity: 'base', numeric: true }),
  amount: (a, b) => a.amount - b.amount,
};

/** Sorted copy; ties keep the date order (newest first) so equal rows do not jump around. */
export function sortTransactions(rows: readonly Transaction[], sort: TransactionSort): Transaction[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compareBy[sort.key](a, b) || compareBy.created_at(b, a) || a.id.localeCompare(b.id));
}

/** Clicking a column's header: a new column starts descending for dates and amounts, ascending for text; the same one flips. */
export function nextSort(current: TransactionSort, key: TransactionSortKey): TransactionSort {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: key === 'description' ? 'ascending' : 'descending' };
}

export interface Page<T> {
  rows: T[];
  /** 1-based page shown (clamped into range). */
  page: number;
  pages: number;
  /** 1-based index of the first row shown (0 when there are none). */
  from: number;
  to: number;
  total: number;
}

/** One page of `rows` (spec tables: 10, 25, 50, 100 or all rows per page). */
export function paginate<T>(rows: readonly T[], pageSize: PageSize, page: number): Page<T> {
  const total = rows.length;
  const size = pageSize === 'all' ? Math.max(total, 1) : pageSize;
  const pages = Math.max(1, Math.ceil(total / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const start = (current - 1) * size;
  const slice = rows.slice(start, start + size);
  return { rows: slice, page: current, pages, from: total === 0 ? 0 : start + 1, to: start + slice.length, total };
}

/** A page-size option's value as a string for `<select>`, and back. */
export const pageSizeValue = (size: PageSize) => String(size);
export function parsePageSize(value: string): PageSize {
  return ((PAGE_SIZES as readonly (number | string)[]).find((s) => String(s) === value) as PageSize | undefined) ?? DEFAULT_PAGE_SIZE;
}
