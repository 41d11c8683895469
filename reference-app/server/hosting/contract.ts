import { CONTAINER_RUNTIME_DEFAULTS } from '@limelight/widgets/api';

// The container contract's defaults (docs/publishing.md, "The container contract"): FastAPI's
// port and document, and one job per instance at a time. One source with the editor
// (src/api/serviceRules.ts); apart from the runner so the publishing schema can name them
// without loading the engine client.

export const DEFAULT_PORT: number = CONTAINER_RUNTIME_DEFAULTS.port;
export const DEFAULT_HEALTH_PATH: string = CONTAINER_RUNTIME_DEFAULTS.health_path;
/** Jobs one instance serves at once unless the deployment says otherwise. */
export const DEFAULT_CONCURRENCY: number = CONTAINER_RUNTIME_DEFAULTS.concurrency;
