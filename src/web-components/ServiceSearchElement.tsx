// TEMPORARY: replaced with the real wrapper once src/components/ServiceSearch lands.
import { defineWidget } from './defineWidget';
import { serviceSearchDefinition } from './definitions/serviceSearch';

export const LimeServiceSearchElement = /* @__PURE__ */ defineWidget(serviceSearchDefinition, () => null);
