// TEMPORARY: replaced with the real wrapper once src/components/ServiceSearch lands.
import { defineWidget } from './defineWidget';
import { serviceSearchDefinition } from './definitions';

export const LimeServiceSearchElement = defineWidget(serviceSearchDefinition, () => null);
