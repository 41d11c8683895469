import { ServiceSearch } from '../components/ServiceSearch';
import { defineWidget, type WidgetRenderProps } from './defineWidget';
import { serviceSearchDefinition } from './definitions/serviceSearch';
import { useShadowEnvironment } from './environment';

function ServiceSearchWidget({ attributes: a, context }: WidgetRenderProps<typeof serviceSearchDefinition>) {
  const environment = useShadowEnvironment(context.root);
  return (
    <ServiceSearch
      environment={environment}
      portalContainer={context.portalContainer}
      serviceHref={a.serviceHref || undefined}
      overviewHref={a.overviewHref || undefined}
      // A third-party page owns its keyboard: Ctrl/Cmd+K and '/' only when asked for.
      shortcuts={a.shortcuts ?? false}
      // A listener's preventDefault() on the element's event stops the navigation.
      onSelect={(model, event) => {
        if (!context.emit('select', model)) event.preventDefault();
      }}
      onSearch={(query, event) => {
        if (!context.emit('search', query)) event.preventDefault();
      }}
    />
  );
}

/** The `<lime-service-search>` element: `ServiceSearch` as a custom element (attributes and events in docs/embeds.md). */
export const LimeServiceSearchElement = /* @__PURE__ */ defineWidget(serviceSearchDefinition, ServiceSearchWidget, {
  strings: (a) => (a.placeholder ? { search: { placeholder: a.placeholder } } : undefined),
});
