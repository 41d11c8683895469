// Script-tag entry: dist/cdn/lime-code-viewer.js registers <lime-code-viewer>.
import { defineElement } from '../define';
import { LimeCodeViewerElement } from '../CodeViewerElement';

defineElement(LimeCodeViewerElement);
