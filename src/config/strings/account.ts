/** Texts of the account widgets; the spec's English texts are the defaults. */
export const accountStrings = {};
