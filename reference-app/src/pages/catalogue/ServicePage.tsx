import { ServiceView } from './ServiceView';

/** /APIs/service/{serviceId} and /APIs/service/{owner}/{name} (product-rules §2): one service. */
export default function ServicePage() {
  return <ServiceView />;
}
