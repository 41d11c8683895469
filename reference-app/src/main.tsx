import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadSiteConfig } from './siteConfig';
import './layout/global.css.ts';

// The server publishes its public endpoints and key at /config.json, so one build runs against
// the local server, a staging API or production without rebuilding.
const config = await loadSiteConfig();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} />
  </StrictMode>,
);
