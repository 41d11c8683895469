// Script-tag entry: dist/cdn/lime-subscription.js registers <lime-subscription>.
import { defineElement } from '../define';
import { LimeSubscriptionElement } from '../account/SubscriptionElement';

defineElement(LimeSubscriptionElement);
