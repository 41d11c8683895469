import { useCallback, useMemo, useState } from 'react';
import type { Transaction } from '../../api/types';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  nextSort,
  paginate,
  sortTransactions,
  type PageSize,
  type TransactionSort,
  type TransactionSortKey,
} from './tableModel';

export interface UseTransactionsTableOptions {
  /**
   * Rows to show instead of loading the signed-in user's transactions (e.g. already loaded by the page).
   */
  transactions?: readonly Transaction[];
  /**
   * Rows per page at first.
   * @default 10
   */
  defaultPageSize?: PageSize;
}

/** Headless transactions table: loading, sorting by any column, pages of 10/25/50/100/all. */
export function useTransactionsTable({ transactions, defaultPageSize = DEFAULT_PAGE_SIZE }: UseTransactionsTableOptions = {}) {
  const { payment } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => payment.transactions(), [payment]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const resource = useApiResource(load, { enabled: signIn === 'signed-in' && transactions === undefined, onError: warnLoad });
  const [sort, setSort] = useState<TransactionSort>(DEFAULT_SORT);
  const [pageSize, setPageSizeState] = useState<PageSize>(defaultPageSize);
  const [page, setPage] = useState(1);
  const rows = transactions ?? resource.data;
  const sorted = useMemo(() => (rows ? sortTransactions(rows, sort) : null), [rows, sort]);
  const current = sorted ? paginate(sorted, pageSize, page) : null;

  return {
    status: transactions ? 'ready' : resource.status,
    sort,
    sortBy: (key: TransactionSortKey) => {
      setSort((s) => nextSort(s, key));
      setPage(1);
    },
    pageSize,
    setPageSize: (size: PageSize) => {
      setPageSizeState(size);
      setPage(1);
    },
    page: current,
    goTo: setPage,
    feedback,
  };
}
