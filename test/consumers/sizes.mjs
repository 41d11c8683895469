// What a bundler-built app pays for the web components from npm (docs/frameworks.md, "Vue"):
// each per-element entry, and the all-elements entry, bundled alone with React as an app's
// bundler would (esbuild, minified, production), counted as the entry plus the chunks it loads
// statically, each gzipped. Lazily loaded chunks (the search engine, the highlighter) are not
// counted, as in scripts/check-sizes.mjs.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** @param {string} nodeModules where `@limelight/widgets` (unpacked tarball), react and react-dom are */
export async function measureElementSizes(nodeModules) {
  const pkgDir = path.join(nodeModules, '@limelight/widgets');
  const standalone = path.join(pkgDir, 'dist/web-components/standalone');
  const names = readdirSync(standalone)
    .filter((f) => /^lime-.*(?<!\.styles)\.js$/.test(f))
    .map((f) => `@limelight/widgets/web-components/${f.slice('lime-'.length, -'.js'.length)}`);
  const sizes = [];
  for (const entry of ['@limelight/widgets/web-components', ...names]) {
    const outdir = mkdtempSync(path.join(tmpdir(), 'lime-size-'));
    try {
      const result = await build({
        stdin: { contents: `import ${JSON.stringify(entry)};`, resolveDir: path.dirname(nodeModules), loader: 'js' },
        bundle: true,
        splitting: true,
        format: 'esm',
        minify: true,
        platform: 'browser',
        outdir,
        metafile: true,
        logLevel: 'error',
        define: { 'process.env.NODE_ENV': '"production"' },
        nodePaths: [nodeModules],
        absWorkingDir: path.dirname(nodeModules),
      });
      const outputs = result.metafile.outputs;
      const main = Object.keys(outputs).find((file) => outputs[file].entryPoint === '<stdin>');
      const seen = new Set();
      const visit = (file) => {
        if (seen.has(file) || !outputs[file]) return;
        seen.add(file);
        for (const i of outputs[file].imports) if (i.kind === 'import-statement') visit(i.path);
      };
      visit(main);
      const bytes = [...seen].reduce((sum, file) => sum + gzipSync(readFileSync(path.resolve(path.dirname(nodeModules), file))).length, 0);
      sizes.push({ entry, bytes });
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }
  return sizes;
}
