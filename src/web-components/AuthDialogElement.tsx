// TEMPORARY: replaced with the real wrapper once src/components/AuthDialog lands.
import { defineWidget } from './defineWidget';
import { authDialogDefinition } from './definitions';

export const LimeAuthDialogElement = defineWidget(authDialogDefinition, () => null);
