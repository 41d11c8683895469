// Script-tag entry: dist/cdn/lime-auth-dialog.js registers <lime-auth-dialog>.
import { defineAuthDialog } from '../define';

defineAuthDialog();
