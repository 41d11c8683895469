import { useCallback, useMemo } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';
import type { ChartDatum } from './chartModel';
import { balanceByMonth, usageRows } from './usageData';

/** The monthly series the usage chart can show. */
export type UsageSeries = 'calls' | 'credits' | 'balance';

/**
 * Headless usage chart: loads the usage statistics (API calls per month) and the transactions
 * (credits spent per month, the balance over time) for the series asked for, and turns them
 * into chart data, oldest month first.
 */
export function useUsageChart(series: readonly UsageSeries[]) {
  const { profile, payment } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const signedIn = signIn === 'signed-in';
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const loadUsage = useCallback(() => profile.usageStatistics(), [profile]);
  const loadTransactions = useCallback(() => payment.transactions(), [payment]);
  const usage = useApiResource(loadUsage, { enabled: signedIn && series.includes('calls'), onError: warnLoad });
  const needsTransactions = series.includes('credits') || series.includes('balance');
  const transactions = useApiResource(loadTransactions, { enabled: signedIn && needsTransactions, onError: warnLoad });

  const data = useMemo(() => {
    const rows = usageRows(usage.data, transactions.data);
    const out: Partial<Record<UsageSeries, ChartDatum[]>> = {
      calls: rows.map((r) => ({ label: r.month, value: r.calls })),
      credits: rows.map((r) => ({ label: r.month, value: r.credits })),
      balance: balanceByMonth(transactions.data ?? []).map((r) => ({ label: r.month, value: r.balance })),
    };
    return out;
  }, [usage.data, transactions.data]);

  const loading = usage.status === 'loading' || transactions.status === 'loading';
  const loaded = (!series.includes('calls') || usage.data !== null) && (!needsTransactions || transactions.data !== null);
  return { data, loading, loaded, feedback };
}
