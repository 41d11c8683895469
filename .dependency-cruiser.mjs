// Import cycles (issue 36): `npm test` runs dependency-cruiser over the platform server, the
// widgets and the SDK (scripts/test-all.mjs, step "cycles") and fails on any circle. Type-only
// imports count: a circle of types is still two modules that cannot be read one without the other.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others: move what both need to a module below them.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.d\\.ts$', '/generated/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { conditionNames: ['source', 'import', 'types', 'default'], extensions: ['.ts', '.tsx', '.mjs', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
