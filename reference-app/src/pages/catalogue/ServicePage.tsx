import { ServiceView } from './ServiceView';

/** /APIs/service/{serviceId} and /APIs/service/{owner}/{name} (spec §2): one service. */
export default function ServicePage() {
  return <ServiceView />;
}
