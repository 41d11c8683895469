// Script-tag entry: dist/cdn/lime-usage-chart.js registers <lime-usage-chart>.
import { defineElement } from '../define';
import { LimeUsageChartElement } from '../account/UsageChartElement';

defineElement(LimeUsageChartElement);
