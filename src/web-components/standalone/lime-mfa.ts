// Script-tag entry: dist/cdn/lime-mfa.js registers <lime-mfa>.
import { defineElement } from '../define';
import { LimeMfaElement } from '../account/MfaElement';

defineElement(LimeMfaElement);
