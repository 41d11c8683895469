import { gpuFleet } from '../../site/gpuFleet';
import * as styles from '../page.css';

export function GpuFleetTable({ caption = 'Our GPU fleet' }: { caption?: string }) {
  return (
    <table className={styles.table}>
      <caption className={styles.muted}>{caption}</caption>
      <thead>
        <tr>
          <th className={styles.th} scope="col">
            GPU
          </th>
          <th className={styles.th} scope="col">
            Memory
          </th>
          <th className={styles.th} scope="col">
            Best for
          </th>
        </tr>
      </thead>
      <tbody>
        {gpuFleet.map((row) => (
          <tr key={row.gpu}>
            <th className={styles.td} scope="row">
              {row.gpu}
            </th>
            <td className={styles.td}>{row.vram}</td>
            <td className={styles.td}>{row.use}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
