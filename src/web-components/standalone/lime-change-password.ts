// Script-tag entry: dist/cdn/lime-change-password.js registers <lime-change-password>.
import { defineElement } from '../define';
import { LimeChangePasswordElement } from '../account/ChangePasswordElement';

defineElement(LimeChangePasswordElement);
