// Script-tag entry: dist/cdn/lime-service-search.js registers <lime-service-search>.
import { defineServiceSearch } from '../define';

defineServiceSearch();
