// Script-tag entry: dist/cdn/lime-transactions.js registers <lime-transactions>.
import { defineElement } from '../define';
import { LimeTransactionsElement } from '../account/TransactionsElement';

defineElement(LimeTransactionsElement);
