import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, formatCredits, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { SeriesChart } from './SeriesChart';
import * as own from './UsageChart.css';
import { useUsageChart, type UsageSeries } from './useUsageChart';

/** Props of `UsageChart`. */
export interface UsageChartProps extends AccountPanelBaseProps {
  /**
   * The charts to show, in order: API calls per month, credits spent per month, the credit
   * balance over time.
   * @default ['calls', 'credits']
   */
  series?: readonly UsageSeries[];
  /**
   * The panel's title.
   * @default the strings table's `account.usageTitle` ('Usage by month')
   */
  title?: string;
}

const DEFAULT_SERIES: readonly UsageSeries[] = ['calls', 'credits'];

/**
 * The signed-in user's usage by month as charts (monthly API calls, credits spent per month, or
 * the balance over time), each with its data as a table and keyboard-reachable tooltips.
 */
export function UsageChart({ headingLevel, className, series = DEFAULT_SERIES, title }: UsageChartProps) {
  const strings = useStrings().account;
  const chart = useUsageChart(series);
  const meta: Record<UsageSeries, { title: string; valueLabel: string; kind: 'bar' | 'line'; format?: (value: number) => string }> = {
    calls: { title: strings.apiCalls, valueLabel: strings.apiCalls, kind: 'bar' },
    credits: { title: strings.creditsSpent, valueLabel: strings.creditsSpent, kind: 'bar', format: formatCredits },
    balance: { title: strings.creditsOverTime, valueLabel: strings.balance, kind: 'line', format: formatCredits },
  };
  // Months of nothing (a new user's zero calls) read better as a sentence than as flat charts.
  const empty = chart.loaded && series.every((s) => (chart.data[s] ?? []).every((d) => d.value === 0));
  return (
    <AccountPanel
      name="usage-chart"
      title={title ?? strings.usageTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={chart.feedback.feedback}
      onDismissFeedback={chart.feedback.clear}
      busy={chart.loading}
    >
      {!chart.loaded && chart.loading && <p className={styles.muted}>{strings.loading}</p>}
      {empty && <p className={styles.muted}>{strings.noUsage}</p>}
      {chart.loaded && !empty && (
        <div className={own.charts}>
          {series.map((s) => (
            <SeriesChart
              key={s}
              title={meta[s].title}
              valueLabel={meta[s].valueLabel}
              categoryLabel={strings.month}
              data={chart.data[s] ?? []}
              kind={meta[s].kind}
              {...(meta[s].format ? { formatValue: meta[s].format } : {})}
              showCaption={series.length > 1}
            />
          ))}
        </div>
      )}
    </AccountPanel>
  );
}
