import type { PricingServer } from '../../api/types';
import { useStrings } from '../../config/PlatformProvider';
import { formatString } from '../../config/strings';
import { isCpuTier } from '../../pricing/cpuTier';
import { formatPricePerHour, formatPricePerSecond } from '../../pricing/format';
import * as styles from './GpuTable.css';

export interface GpuTableProps {
  /** Servers to list, already filtered and sorted by price per second (product-rules §9). */
  servers: readonly PricingServer[];
  /** Id of the server the estimate is for; its row is marked. */
  selectedId?: string | null;
  /**
   * Table caption.
   * @default strings.pricing.table.caption
   */
  caption?: string;
  /** Extra class on the scroll container. */
  className?: string;
}

/** The GPU price table: name, memory, provider, price per second and per hour. */
export function GpuTable({ servers, selectedId = null, caption, className }: GpuTableProps) {
  const strings = useStrings().pricing;
  const t = strings.table;
  return (
    // Focusable so a keyboard user can scroll it sideways on a narrow screen.
    <div className={[styles.scroller, className].filter(Boolean).join(' ')} tabIndex={0} role="group" aria-label={caption ?? t.caption}>
      <table className={styles.table} data-lime="gpu-table">
        <caption className={styles.caption}>{caption ?? t.caption}</caption>
        <thead>
          <tr>
            <th className={styles.th} scope="col">
              {t.gpu}
            </th>
            <th className={`${styles.th} ${styles.numeric}`} scope="col">
              {t.vram}
            </th>
            <th className={styles.th} scope="col">
              {t.provider}
            </th>
            <th className={`${styles.th} ${styles.numeric}`} scope="col">
              {t.pricePerSecond}
            </th>
            <th className={`${styles.th} ${styles.numeric}`} scope="col">
              {t.pricePerHour}
            </th>
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => {
            const selected = server.id === selectedId;
            return (
              <tr
                key={server.id}
                className={styles.row({ selected })}
                data-state={selected ? 'selected' : undefined}
                aria-current={selected || undefined}
              >
                <th className={styles.td} scope="row">
                  {isCpuTier(server) ? strings.calculator.cpuTier : server.display_name}
                  {selected && <span className={styles.visuallyHidden}> ({t.selected})</span>}
                </th>
                <td className={`${styles.td} ${styles.numeric}`}>
                  {isCpuTier(server) ? '—' : formatString(strings.calculator.vram, { vram: server.gpu_vram_gb })}
                </td>
                <td className={styles.td}>{server.provider}</td>
                <td className={`${styles.td} ${styles.numeric}`}>{formatPricePerSecond(server.customer_price_per_s_usd)}</td>
                <td className={`${styles.td} ${styles.numeric}`}>{formatPricePerHour(server.customer_price_per_s_usd)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
