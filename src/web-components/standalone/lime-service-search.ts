// Script-tag entry: dist/cdn/lime-service-search.js registers <lime-service-search>.
import { defineElement } from '../define';
import { LimeServiceSearchElement } from '../ServiceSearchElement';

defineElement(LimeServiceSearchElement);
