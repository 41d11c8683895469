#!/usr/bin/env node
// npx limelight-types <service-id>... --out limelight.d.ts [--base-url URL] [--api-key KEY]
// Reads each service's OpenAPI document and writes the type map (docs/sdk.md, "Types per service").
import { writeFile } from 'node:fs/promises';
import { createClient } from './client.ts';
import { envVar } from './env.ts';
import { generateTypes } from './typegen.ts';

const USAGE = `Usage: limelight-types <service-id>... [--out file.d.ts] [--base-url URL] [--api-key KEY]
  --base-url  default $LIMELIGHT_BASE_URL or http://localhost:3000
  --api-key   default $LIMELIGHT_API_KEY (needed for private services)
  --out       default: print to stdout
The older names LIME_BASE_URL and LIME_API_KEY still work, with a warning.`;

async function main(args: string[]): Promise<number> {
  const ids: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? args[++i];
      if (!['out', 'base-url', 'api-key'].includes(name) || value === undefined) {
        console.error(`Unknown or incomplete option ${arg}\n${USAGE}`);
        return 2;
      }
      flags[name] = value;
    } else ids.push(arg);
  }
  if (!ids.length) {
    console.error(USAGE);
    return 2;
  }
  const client = createClient({
    baseUrl: flags['base-url'] ?? envVar('LIMELIGHT_BASE_URL') ?? 'http://localhost:3000',
    apiKey: flags['api-key'] ?? envVar('LIMELIGHT_API_KEY'),
  });
  const documents: Record<string, Record<string, unknown>> = {};
  for (const id of ids) documents[id] = await client.openapi(id);
  const text = generateTypes(documents, `limelight-types ${ids.join(' ')}`);
  if (flags.out) {
    await writeFile(flags.out, text);
    console.error(`Wrote types of ${ids.length} service(s) to ${flags.out}`);
  } else process.stdout.write(text);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
