import { ServiceRunner } from '../components/ServiceRunner';
import { defineWidget, type WidgetRenderProps } from './defineWidget';
import { serviceRunnerDefinition } from './definitions/serviceRunner';

const isInput = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

function ServiceRunnerWidget({ attributes: a, context }: WidgetRenderProps<typeof serviceRunnerDefinition>) {
  if (!a.serviceId) {
    if (process.env.NODE_ENV !== 'production') console.warn('[limelight] <lime-service-runner> needs a service-id attribute.');
    return null;
  }
  return (
    <ServiceRunner
      // Another service, endpoint or start input starts the form afresh.
      key={`${a.serviceId}|${a.endpoint ?? ''}|${JSON.stringify(a.input ?? null)}`}
      serviceId={a.serviceId}
      defaultEndpoint={a.endpoint || undefined}
      defaultInput={isInput(a.input) ? a.input : undefined}
      showRecentRuns={a.showRecentRuns !== false}
      portalContainer={context.portalContainer}
      onJobChange={(job) => context.emit('job', job)}
    />
  );
}

/** `<lime-service-runner service-id=…>`: the playground of one service. */
export const LimeServiceRunnerElement = /* @__PURE__ */ defineWidget(serviceRunnerDefinition, ServiceRunnerWidget);
