// Script-tag entry: dist/cdn/lime-profile-form.js registers <lime-profile-form>.
import { defineElement } from '../define';
import { LimeProfileFormElement } from '../account/ProfileFormElement';

defineElement(LimeProfileFormElement);
