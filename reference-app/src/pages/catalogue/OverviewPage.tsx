import { OverviewView } from './OverviewView';

/** /APIs/Overview and /APIs/overview (product-rules §2): the catalogue of all services and categories. */
export default function OverviewPage() {
  return <OverviewView />;
}
