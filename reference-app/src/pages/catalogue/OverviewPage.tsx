import { OverviewView } from './OverviewView';

/** /APIs/Overview and /APIs/overview (spec §2): the catalogue of all services and categories. */
export default function OverviewPage() {
  return <OverviewView />;
}
