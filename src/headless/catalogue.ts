// @limelight/widgets/headless/catalogue: EXPERIMENTAL (docs/api-surface.md). The search store
// (an @xstate/store store: filters in, the filtered services out, re-applied on every change)
// and the hook that reads a slice of it, for a custom search or overview view over the shared
// catalogue. They may change in any minor release; the stable surface is
// `@limelight/widgets/catalogue` (the engine, the provider, paths) and the components.
export { createSearchStore } from '../catalogue/store';
export type { SearchContext, SearchStore } from '../catalogue/store';
export { useStoreSelector } from '../catalogue/react';
