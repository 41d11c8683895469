// Script-tag entry: dist/cdn/lime-pricing-calculator.js registers <lime-pricing-calculator>.
import { defineElement } from '../define';
import { LimePricingCalculatorElement } from '../PricingCalculatorElement';

defineElement(LimePricingCalculatorElement);
