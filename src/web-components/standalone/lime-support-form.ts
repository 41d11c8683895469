// Script-tag entry: dist/cdn/lime-support-form.js registers <lime-support-form>.
import { defineElement } from '../define';
import { LimeSupportFormElement } from '../account/SupportFormElement';

defineElement(LimeSupportFormElement);
