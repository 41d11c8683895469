/** Texts of the auth widgets; the spec's English texts are the defaults. */
export const authStrings = {};
