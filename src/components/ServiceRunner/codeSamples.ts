import type { ServiceEndpoint } from '../../api/types';

/**
 * Copy-ready code that runs a service endpoint through the job API (docs/jobs.md): cURL with
 * `Prefer: wait=60` (the answer comes when the job ends, up to a minute), and the SDKs
 * (docs/sdk.md): Python's `limelight` and JavaScript's `@limelight/client`, whose `run` waits
 * the same way, follows longer jobs over their event stream and returns the output.
 */

/** The environment variable the samples read the API key from when none is given. */
export const API_KEY_ENV = 'LIMELIGHT_API_KEY';
/** Longest wait the samples ask for (the server's maximum). */
const WAIT_S = 60;

export interface CodeSampleOptions {
  /** API host, e.g. `https://api.example.com` (no trailing slash needed). */
  apiUrl: string;
  serviceId: string;
  endpoint: string;
  input: Record<string, unknown>;
  /** A full API key to write into the samples; without one they read `$LIMELIGHT_API_KEY`. */
  apiKey?: string | null;
}

/** Ready-to-copy calls of one endpoint: curl, Python and JavaScript. */
export interface CodeSamples {
  curl: string;
  python: string;
  javascript: string;
}

const SAMPLE_TEXT: Record<string, string> = {
  prompt: 'A ripe lime on a wooden desk, soft studio light',
  text: 'Hello from Limelight!',
};

/**
 * An input that runs: the endpoint's own example (the one the Playground opens on, which its
 * publisher ran, so either/or rules and real files are right), else one that passes validation:
 * every required parameter (its default, or a sample value of its type) and nothing else, so the
 * server fills the optional defaults itself.
 */
export function exampleInput(endpoint: Pick<ServiceEndpoint, 'parameters' | 'example'>): Record<string, unknown> {
  if (endpoint.example?.input) return { ...endpoint.example.input };
  const input: Record<string, unknown> = {};
  for (const p of endpoint.parameters) {
    if (!p.required) continue;
    if (p.default !== undefined) input[p.name] = p.default;
    else if (p.enum?.length) input[p.name] = p.enum[0];
    else if (p.name === 'messages' || (p.type === 'array' && p.items?.type === 'object')) {
      input[p.name] = [{ role: 'user', content: 'Write a haiku about limes.' }];
    } else if (p.type === 'array') {
      // A required list may not be empty (the runner and the server refuse it), so one item.
      const numeric = p.items?.type === 'integer' || p.items?.type === 'number';
      input[p.name] = [numeric ? 1 : (SAMPLE_TEXT.text ?? 'Example')];
    } else if (p.type === 'integer' || p.type === 'number') input[p.name] = p.minimum ?? 1;
    else if (p.type === 'boolean') input[p.name] = false;
    else if (p.type === 'file') input[p.name] = 'https://example.com/input.png';
    else input[p.name] = SAMPLE_TEXT[p.name] ?? `Example ${p.name.replace(/_/g, ' ')}`;
  }
  return input;
}

/** The service's own OpenAPI document (docs/sdk.md); service ids may hold a slash. */
export const serviceOpenApiUrl = (apiUrl: string, serviceId: string) =>
  `${apiUrl.replace(/\/+$/, '')}/v1/services/${serviceId.split('/').map(encodeURIComponent).join('/')}/openapi.json`;

/**
 * How to get each SDK. Neither is on a public registry yet, so the lines say how to install it
 * from the Limelight repository (docs/sdk.md, "Install"); the tarball is what `npm pack` names it.
 */
export const INSTALL = {
  python: [
    'pip install ./sdk/python   (in the Limelight repository: not on PyPI yet, docs/sdk.md)',
    'or without installing: PYTHONPATH=sdk/python',
  ],
  javascript: [
    'npm install ./packages/client/limelight-client-0.1.0.tgz   (not on npm yet, docs/sdk.md)',
    'made in the Limelight repository by: npm run build:client && cd packages/client && npm pack',
  ],
} as const;

const comment = (prefix: string, lines: readonly string[]) => lines.map((line) => `${prefix} ${line}`).join('\n');

/**
 * The input with site-relative file paths (an example's `/media/examples/…`) made absolute: the
 * samples run outside the site, where a path alone names nothing.
 */
function absoluteFiles(input: Record<string, unknown>, base: string): Record<string, unknown> {
  const resolve = (value: unknown): unknown =>
    typeof value === 'string' && value.startsWith('/media/') ? `${base}${value}` : Array.isArray(value) ? value.map(resolve) : value;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [name, resolve(value)]));
}

/** A string for a single-quoted shell word. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** JSON value -> Python literal (True/False/None), indented like json.dumps(indent=4). */
export function toPython(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent + 4);
  const end = ' '.repeat(indent);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${pad}${toPython(v, indent + 4)}`).join(',\n')},\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${toPython(v, indent + 4)}`).join(',\n')},\n${end}}`;
}

function indentJson(value: unknown, indent: number): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${' '.repeat(indent)}`);
}

/** The code samples (curl, JavaScript, Python) that call one endpoint of a service with an example input. */
export function codeSamples(options: CodeSampleOptions): CodeSamples {
  const base = options.apiUrl.replace(/\/+$/, '');
  const body = { service_id: options.serviceId, endpoint: options.endpoint, input: absoluteFiles(options.input, base) };
  const key = options.apiKey?.trim() || null;

  const curl = [
    ...(key ? [] : [`# export ${API_KEY_ENV}=<your API key>   (Account > API keys)`]),
    `curl -sS -X POST ${shellQuote(`${base}/v1/jobs`)} \\`,
    `  -H ${key ? shellQuote(`Authorization: Bearer ${key}`) : `"Authorization: Bearer $${API_KEY_ENV}"`} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Prefer: wait=${WAIT_S}' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');

  const python = `${comment('#', INSTALL.python)}
${key ? '' : 'import os\n\n'}import limelight

client = limelight.Client(
    base_url=${JSON.stringify(base)},
    api_key=${key ? JSON.stringify(key) : `os.environ[${JSON.stringify(API_KEY_ENV)}]`},
)

# Waits for the job (following it when it runs long) and returns its output;
# a failed job raises limelight.JobFailedError, bad input limelight.ValidationError.
output = client.run(
    ${JSON.stringify(options.serviceId)},
    input=${toPython(body.input, 4)},
    endpoint=${JSON.stringify(options.endpoint)},
)
print(output)
`;

  const javascript = `${comment('//', INSTALL.javascript)}
import { createClient } from '@limelight/client';

const client = createClient({
  baseUrl: ${JSON.stringify(base)},
  apiKey: ${key ? JSON.stringify(key) : `process.env.${API_KEY_ENV}`},
});

// Waits for the job (following it when it runs long) and returns its output; files in it
// have url(), blob() and stream(). A failed job throws JobFailedError, bad input ApiError.
const output = await client.run(${JSON.stringify(options.serviceId)}, {
  endpoint: ${JSON.stringify(options.endpoint)},
  input: ${indentJson(body.input, 2)},
});
console.log(JSON.stringify(output, null, 2));
`;

  return { curl, python, javascript };
}
