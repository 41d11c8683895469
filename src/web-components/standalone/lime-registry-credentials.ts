// Script-tag entry: dist/cdn/lime-registry-credentials.js registers <lime-registry-credentials>.
import { defineElement } from '../define';
import { LimeRegistryCredentialsElement } from '../account/RegistryCredentialsElement';

defineElement(LimeRegistryCredentialsElement);
