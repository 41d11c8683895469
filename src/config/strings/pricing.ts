/** Texts of the pricing widgets; the spec's English texts are the defaults. */
export const pricingStrings = {};
