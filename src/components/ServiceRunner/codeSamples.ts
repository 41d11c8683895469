import type { ServiceEndpoint } from '../../api/types';

/**
 * Copy-ready code that runs a service endpoint through the job API (docs/jobs.md): cURL, Python
 * and JavaScript. Each creates the job with `Prefer: wait=60` (the answer comes when the job
 * ends, up to a minute) and then polls until it is final, so it works for long runs too.
 */

/** The environment variable the samples read the API key from when none is given. */
export const API_KEY_ENV = 'LIME_API_KEY';
/** Longest wait the samples ask for (the server's maximum). */
const WAIT_S = 60;

export interface CodeSampleOptions {
  /** API host, e.g. `https://api.example.com` (no trailing slash needed). */
  apiUrl: string;
  serviceId: string;
  endpoint: string;
  input: Record<string, unknown>;
  /** A full API key to write into the samples; without one they read `$LIME_API_KEY`. */
  apiKey?: string | null;
}

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
 * An input that passes validation: every required parameter (its default, or a sample value
 * of its type) and nothing else, so the server fills the optional defaults itself.
 */
export function exampleInput(endpoint: Pick<ServiceEndpoint, 'parameters'>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const p of endpoint.parameters) {
    if (!p.required) continue;
    if (p.default !== undefined) input[p.name] = p.default;
    else if (p.enum?.length) input[p.name] = p.enum[0];
    else if (p.name === 'messages' || (p.type === 'array' && p.items?.type === 'object')) {
      input[p.name] = [{ role: 'user', content: 'Write a haiku about limes.' }];
    } else if (p.type === 'array') input[p.name] = [];
    else if (p.type === 'integer' || p.type === 'number') input[p.name] = p.minimum ?? 1;
    else if (p.type === 'boolean') input[p.name] = false;
    else if (p.type === 'file') input[p.name] = 'https://example.com/input.png';
    else input[p.name] = SAMPLE_TEXT[p.name] ?? `Example ${p.name.replace(/_/g, ' ')}`;
  }
  return input;
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

export function codeSamples(options: CodeSampleOptions): CodeSamples {
  const base = options.apiUrl.replace(/\/+$/, '');
  const body = { service_id: options.serviceId, endpoint: options.endpoint, input: options.input };
  const key = options.apiKey?.trim() || null;

  const curl = [
    ...(key ? [] : [`# export ${API_KEY_ENV}=<your API key>   (Account > API keys)`]),
    `curl -sS -X POST ${shellQuote(`${base}/v1/jobs`)} \\`,
    `  -H ${key ? shellQuote(`Authorization: Bearer ${key}`) : `"Authorization: Bearer $${API_KEY_ENV}"`} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Prefer: wait=${WAIT_S}' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');

  const python = `import os
import time

import requests

API_URL = ${JSON.stringify(base)}
API_KEY = ${key ? JSON.stringify(key) : `os.environ[${JSON.stringify(API_KEY_ENV)}]`}
headers = {"Authorization": f"Bearer {API_KEY}"}

# Prefer: wait answers when the job ends (up to ${WAIT_S} s); longer runs are polled below.
job = requests.post(
    f"{API_URL}/v1/jobs",
    headers={**headers, "Prefer": "wait=${WAIT_S}"},
    json=${toPython(body, 4)},
    timeout=${WAIT_S + 10},
)
job.raise_for_status()
job = job.json()
while job["status"] in ("QUEUED", "PROCESSING"):
    time.sleep(1)
    job = requests.get(f"{API_URL}/v1/jobs/{job['job_id']}", headers=headers, timeout=30).json()

print(job["status"], job["result"] if job["status"] == "FINISHED" else job["error"])
`;

  const javascript = `const API_URL = ${JSON.stringify(base)};
const API_KEY = ${key ? JSON.stringify(key) : `process.env.${API_KEY_ENV}`};
const headers = { Authorization: \`Bearer \${API_KEY}\`, 'Content-Type': 'application/json' };

// Prefer: wait answers when the job ends (up to ${WAIT_S} s); longer runs are polled below.
const response = await fetch(\`\${API_URL}/v1/jobs\`, {
  method: 'POST',
  headers: { ...headers, Prefer: 'wait=${WAIT_S}' },
  body: JSON.stringify(${indentJson(body, 2)}),
});
if (!response.ok) throw new Error(\`\${response.status}: \${(await response.json()).detail}\`);
let job = await response.json();
while (job.status === 'QUEUED' || job.status === 'PROCESSING') {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  job = await (await fetch(\`\${API_URL}/v1/jobs/\${job.job_id}\`, { headers })).json();
}

console.log(job.status, job.status === 'FINISHED' ? job.result : job.error);
`;

  return { curl, python, javascript };
}
