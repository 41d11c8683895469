// Placeholder until the platform server lands.
export async function startPlatformServer(): Promise<{ url: string; authKey: string; close: () => Promise<void> }> {
  return { url: 'http://127.0.0.1:9', authKey: '', close: async () => {} };
}
