import { describe, expect, it } from 'vitest';
import { registryHandle } from '../../../../reference-app/server/registry/handles';
import { grant, parseScopes, repositoryIn } from '../../../../reference-app/server/registry/scopes';

// Who gets what from the platform's registry (docs/publishing.md, "The platform's registry").

describe('registry scopes', () => {
  const ada = 'ada-3f2a9c1e0b4d';

  it('grants push and pull inside the own namespace only', () => {
    const asked = parseScopes([
      `repository:${ada}/ocr:push,pull`,
      'repository:bob-000000000000/ocr:push,pull',
      `repository:${ada}x/ocr:pull`,
    ]);
    expect(grant(asked, ada)).toEqual([{ type: 'repository', name: `${ada}/ocr`, actions: ['push', 'pull'] }]);
  });

  it('never grants a bare namespace, the catalog, deletes or malformed scopes', () => {
    const asked = parseScopes([
      `repository:${ada}:push`,
      'registry:catalog:*',
      `repository:${ada}/ocr:delete,*`,
      `repository:${ada}/OCR:pull`,
    ]);
    expect(grant(asked, ada)).toEqual([]);
  });

  it('a pull-only grant drops push', () => {
    expect(grant(parseScopes([`repository:${ada}/ocr:pull,push`]), ada, ['pull'])).toEqual([
      { type: 'repository', name: `${ada}/ocr`, actions: ['pull'] },
    ]);
  });

  it('finds the repository of an image on the registry, and nothing on another host', () => {
    expect(repositoryIn(`127.0.0.1:5000/${ada}/ocr:1`, '127.0.0.1:5000')).toBe(`${ada}/ocr`);
    expect(repositoryIn(`127.0.0.1:5000/${ada}/ocr@sha256:${'a'.repeat(64)}`, '127.0.0.1:5000')).toBe(`${ada}/ocr`);
    expect(repositoryIn(`127.0.0.1:50001/${ada}/ocr:1`, '127.0.0.1:5000')).toBeNull();
  });

  it('handles of two accounts sharing an e-mail local part differ', () => {
    const a = registryHandle('Ada.L@a.org', '3f2a9c1e-0b4d-4000-8000-000000000001');
    const b = registryHandle('ada.l@b.org', '9c1e3f2a-0b4d-4000-8000-000000000001');
    expect(a).toBe('ada-l-3f2a9c1e0b4d');
    expect(a).not.toBe(b);
  });
});
