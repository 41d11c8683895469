// Script-tag entry: dist/cdn/lime-api-keys.js registers <lime-api-keys>.
import { defineElement } from '../define';
import { LimeApiKeysElement } from '../account/ApiKeysElement';

defineElement(LimeApiKeysElement);
