// The API report's documentation rule (scripts/api-report.mjs): every name a public entry
// exports carries a doc comment, so the surface docs/api-surface.md describes stays documented
// in the editor and in the generated declarations.
import ts from 'typescript';

/** The doc comments of a one-name `export { Name } from '…'` (an entry documenting a re-export). */
function reExportDoc(specifier) {
  const declaration = specifier.parent?.parent;
  if (!declaration || !ts.isExportDeclaration(declaration) || declaration.exportClause?.elements.length !== 1) return '';
  return (declaration.jsDoc ?? [])
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
    .join(' ')
    .trim();
}

/**
 * Whether an exported name has a doc comment: on what it names, or on a one-name re-export along
 * the way (how an entry documents a type another package declares, e.g. supabase's `Session`).
 */
export function isDocumented(checker, symbol) {
  let current = symbol;
  for (let hop = 0; hop < 10 && current.flags & ts.SymbolFlags.Alias; hop++) {
    if ((current.declarations ?? []).some((d) => ts.isExportSpecifier(d) && reExportDoc(d))) return true;
    const next = checker.getImmediateAliasedSymbol(current);
    if (!next) break;
    current = next;
  }
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() !== '';
}
