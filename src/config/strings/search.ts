/** Texts of the search widgets; the spec's English texts are the defaults. */
export const searchStrings = {};
