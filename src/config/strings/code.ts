/** Texts of the code widgets; the spec's English texts are the defaults. */
export const codeStrings = {};
