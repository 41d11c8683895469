// DOMPurify loads on demand (src/catalogue/purifier.ts; docs/deploy.md, "Lean first load"):
// htmlToText takes the DOM-free path until it is in, and DOMPurify's afterwards; the search
// engine brings it along, so the header search's rows are always DOMPurify's text.
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../src/catalogue/text';
import { loadSearchEngine } from '../../../src/catalogue/engine';
import { peekPurifier } from '../../../src/catalogue/purifier';

// stripHtml decodes only the common entities; DOMPurify parses HTML and so decodes all of them.
const html = '<p>Caf&eacute;</p><p>bar</p><img src=x onerror="window.__pwned = true"><script>window.__pwned = true</script>';

describe('DOMPurify on demand', () => {
  it('htmlToText is safe text before DOMPurify loads and DOMPurify text once the search engine brought it', async () => {
    expect(peekPurifier()).toBeNull();
    expect(htmlToText(html)).toBe('Caf&eacute; bar');
    await loadSearchEngine();
    expect(peekPurifier()).not.toBeNull();
    expect(htmlToText(html)).toBe('Café bar');
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });
});
