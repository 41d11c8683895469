// Script-tag entry: dist/cdn/lime-auth-dialog.js registers <lime-auth-dialog>.
import { defineElement } from '../define';
import { LimeAuthDialogElement } from '../AuthDialogElement';

defineElement(LimeAuthDialogElement);
