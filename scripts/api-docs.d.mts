import type ts from 'typescript';

/** Whether an exported name has a doc comment: on what it names, or on a one-name re-export along the way. */
export function isDocumented(checker: ts.TypeChecker, symbol: ts.Symbol): boolean;
