import { ServiceView } from './catalogue/ServiceView';

/** /APIs/service/{serviceId} and /APIs/service/{owner}/{name} (spec §2): one service. */
export default function ServicePage() {
  return <ServiceView />;
}
