// Script-tag entry: dist/cdn/lime-service-runner.js registers <lime-service-runner>.
import { defineElement } from '../define';
import { LimeServiceRunnerElement } from '../ServiceRunnerElement';

defineElement(LimeServiceRunnerElement);
