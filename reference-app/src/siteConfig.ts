export interface SiteConfig {
  apiUrl: string;
  authUrl: string;
  authKey: string;
}

export async function loadSiteConfig(): Promise<SiteConfig> {
  const response = await fetch('/config.json');
  if (!response.ok) throw new Error(`Could not load /config.json: HTTP ${response.status}`);
  return (await response.json()) as SiteConfig;
}
