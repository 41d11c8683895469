// media/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the media store, the example media and the image checks.
export { exampleMediaDir } from './exampleMedia';
export { realExampleCover } from './examples';
export { decodeRgba, ImageRefusedError } from './imageDecode';
export { readImageHeader } from './imageHeader';
export { confineFileReferences } from './ownMedia';
export { contentTypeOfKey, createFileMediaStore } from './store';
