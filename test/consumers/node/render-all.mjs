// Plain Node, no bundler, no loader: every entry of the installed package imports, and every
// component entry's component renders to a string (server rendering, tests, scripts).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { PlatformProvider } from '@limelight/widgets/platform';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('@limelight/widgets/package.json'));
const { exports } = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));

/** Every specifier the exports map offers, patterns expanded over the files they match. */
function specifiers() {
  const out = [];
  for (const [subpath, target] of Object.entries(exports)) {
    const file = typeof target === 'string' ? target : target.default;
    if (!file.endsWith('.js')) continue; // stylesheets, package.json
    if (!subpath.includes('*')) {
      out.push(`@limelight/widgets${subpath.slice(1)}`);
      continue;
    }
    const [before, after] = file.split('*');
    const dir = path.join(pkgDir, path.dirname(before));
    const prefix = path.basename(before);
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith(after) || name.endsWith(`.styles${after}`)) continue;
      out.push(`@limelight/widgets${subpath.slice(1).replace('*', name.slice(prefix.length, name.length - after.length))}`);
    }
  }
  return out;
}

// Props a component cannot render without.
const REQUIRED_PROPS = {
  ServiceRunner: { serviceId: 'lime-diffusion-xl' },
  CodeViewer: { code: 'print("a ripe lime")', language: 'python' },
  PricingCalculator: {},
  UsageChart: {},
  TransactionsTable: {},
  PlanCards: {},
};

const pascal = (name) => name.replace(/(^|-)(\w)/g, (_m, _d, c) => c.toUpperCase());
let imported = 0;
let rendered = 0;
const failures = [];
for (const specifier of specifiers()) {
  let module;
  try {
    module = await import(specifier);
    imported++;
  } catch (error) {
    failures.push(`import ${specifier}: ${error.message}`);
    continue;
  }
  const target = exports[`.${specifier.slice('@limelight/widgets'.length)}`];
  if (typeof target !== 'object' || !target.default.startsWith('./dist/components/')) continue;
  const name = pascal(specifier.split('/').pop());
  const Component = module[name];
  if (!Component) {
    failures.push(`${specifier} exports no ${name}`);
    continue;
  }
  try {
    const html = renderToString(
      createElement(
        PlatformProvider,
        { apiUrl: 'https://api.example', authUrl: 'https://api.example', authKey: 'anon' },
        createElement(Component, REQUIRED_PROPS[name] ?? {}),
      ),
    );
    if (typeof html !== 'string') throw new Error('rendered no HTML');
    rendered++;
  } catch (error) {
    failures.push(`render ${name}: ${error.message}`);
  }
}
console.log(`plain Node ${process.version}: ${imported} entries imported, ${rendered} components rendered to HTML`);
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
if (rendered < 15) {
  console.error(`expected every component entry to render, only ${rendered} did`);
  process.exit(1);
}
