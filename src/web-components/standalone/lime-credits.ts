// Script-tag entry: dist/cdn/lime-credits.js registers <lime-credits>.
import { defineElement } from '../define';
import { LimeCreditsElement } from '../account/CreditsElement';

defineElement(LimeCreditsElement);
