import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServiceEndpoint } from '../../../src/api/types';
import { projectRoot } from '../../../scripts/source-aliases.mjs';
import { codeSamples, exampleInput } from '../../../src/components/ServiceRunner/codeSamples';
import { sampleCode as homePageSample } from '../../../reference-app/src/site/content';
import { SEED_MODELS } from '../../../reference-app/server/seed';

// Every code sample the site and the README show, as a reader copies it (issue 39, item 2): the
// quick starts of README.md and docs/, the home page's Python sample, and the API tab's cURL,
// Python and JavaScript for every service of the catalogue. The tests run each one for real
// against one server (samples.test.ts: shell and Python; consumer.test.ts: JavaScript, where
// @limelight/client is installed from its tarball as docs/sdk.md "Install" says).

export type SampleLanguage = 'sh' | 'python' | 'javascript';

export interface Sample {
  /** Where a reader sees it, e.g. `README.md, "Run a service, publish a service" #2`. */
  origin: string;
  language: SampleLanguage;
  code: string;
}

/**
 * The user-facing quick starts: every sh/python/js block of these sections is a sample, except
 * one preceded by `<!-- sample not run: why -->` (a path that needs podman and minutes, tested
 * elsewhere, which the comment names).
 */
export const QUICK_STARTS: ReadonlyArray<{ file: string; sections: readonly string[] }> = [
  { file: 'README.md', sections: ['Run a service, publish a service'] },
  { file: 'docs/sdk.md', sections: ['Install', 'Quick start'] },
  { file: 'docs/jobs.md', sections: ['Quick start (cURL)'] },
];

const LANGUAGES: Record<string, SampleLanguage> = { sh: 'sh', bash: 'sh', python: 'python', js: 'javascript', javascript: 'javascript' };

/** The fenced blocks of one `## section` of a Markdown text; skipped ones are left out. */
export function sectionSamples(markdown: string, file: string, section: string): Sample[] {
  const start = markdown.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`${file} has no section "## ${section}"`);
  const rest = markdown.slice(start + section.length + 5);
  const body = rest.slice(0, rest.search(/\n## |$/));
  const samples: Sample[] = [];
  let index = 0;
  for (const match of body.matchAll(/(<!-- sample not run: [^>]+-->\s*)?```(\w*)\n([\s\S]*?)```/g)) {
    index += 1;
    const language = LANGUAGES[match[2]];
    if (!language || match[1]) continue;
    samples.push({ origin: `${file}, "${section}" #${index}`, language, code: match[3] });
  }
  return samples;
}

export function documentedSamples(): Sample[] {
  return QUICK_STARTS.flatMap(({ file, sections }) => {
    const markdown = readFileSync(path.join(projectRoot, file), 'utf8');
    return sections.flatMap((section) => sectionSamples(markdown, file, section));
  });
}

const PUBLISHER_SERVICES = new Set(SEED_MODELS.filter((m) => m.owner === 'publisher').map((m) => m.id));

interface Descriptor {
  id: string;
  endpoints?: ServiceEndpoint[];
  deployment?: string;
}

/** The API tab's samples, all of them and the subsets the tests run. */
export interface ApiTabSamples {
  all: Sample[];
  /** One service per distinct endpoint and input: services made from one template differ only by id. */
  distinct: Sample[];
  /** One service per kind of input (which value types it holds: text, numbers, files, lists, messages). */
  shapes: Sample[];
  /**
   * Services whose first endpoint takes a file but has no example (the Playground's and the API
   * tab's input): their samples can only name a placeholder file, and are left out of the above.
   */
  withoutFile: Sample[];
}

/** The kinds of value an input holds, e.g. `file,string`: the SDKs treat each kind apart. */
function inputShape(input: Record<string, unknown>): string {
  const kind = (value: unknown): string =>
    Array.isArray(value)
      ? `list of ${[...new Set(value.map(kind))].join('|')}`
      : typeof value === 'string' && /^https?:\/\/|^\/media\//.test(value)
        ? 'file'
        : typeof value === 'object' && value !== null
          ? 'object'
          : typeof value;
  return [...new Set(Object.values(input).map(kind))].sort().join(',');
}

/**
 * The API tab's samples for every service in the catalogue, as a signed-in reader sees them after
 * "Create API key" (the key written in), for the endpoint the tab shows first (its first POST).
 */
export async function apiTabSamples(baseUrl: string, apiKey: string): Promise<ApiTabSamples> {
  const response = await fetch(`${baseUrl}/v1/model_management/model_descriptors`);
  const services = (await response.json()) as Descriptor[];
  const result: ApiTabSamples = { all: [], distinct: [], shapes: [], withoutFile: [] };
  const inputs = new Set<string>();
  const shapes = new Set<string>();
  for (const service of services) {
    const endpoint = service.endpoints?.find((e) => e.method === 'POST');
    // A container service without a runner answers 503 by design, whatever the sample says.
    if (!endpoint || (service.deployment && service.deployment !== 'ready')) continue;
    const input = exampleInput(endpoint);
    const samples = codeSamples({ apiUrl: baseUrl, serviceId: service.id, endpoint: endpoint.path, input, apiKey });
    const made = (['curl', 'python', 'javascript'] as const).map((kind) => ({
      origin: `API tab of ${service.id} (${kind})`,
      language: kind === 'curl' ? ('sh' as const) : kind,
      code: samples[kind],
    }));
    result.all.push(...made);
    // The demo publisher's services are read, not run: a run would earn their publisher credits
    // on the shared test server, where seed-earnings.test.ts checks the seeded earnings. Their
    // samples come from the same generator as every other service's.
    if (PUBLISHER_SERVICES.has(service.id)) continue;
    if (!endpoint.example?.input && endpoint.parameters.some((p) => p.required && p.type === 'file')) {
      result.withoutFile.push(...made);
      continue;
    }
    const sameInput = `${endpoint.path} ${JSON.stringify(input)}`;
    if (!inputs.has(sameInput)) result.distinct.push(...made);
    inputs.add(sameInput);
    if (!shapes.has(inputShape(input))) result.shapes.push(...made);
    shapes.add(inputShape(input));
  }
  return result;
}

export const siteSamples = (): Sample[] => [{ origin: "home page's Python sample", language: 'python', code: homePageSample }];

/** What a reader fills in: the placeholders of the docs' samples become this server and key. */
export function pasted(code: string, baseUrl: string, apiKey: string): string {
  return code.replaceAll('http://localhost:3000', baseUrl).replaceAll('lime_…', apiKey).replaceAll('lime_...', apiKey);
}

/**
 * Runs one sample as a reader would: `sh` for shell, Debian's python3 for Python (with
 * `PYTHONPATH=sdk/python`, which every Python sample must say), node for JavaScript from `cwd`.
 * `env` holds what the text around a sample tells the reader to set (the API key, a job id).
 */
export function runSample(sample: Sample, options: { cwd: string; env: Record<string, string> }): Promise<SampleRun> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...options.env };
  const [command, args] =
    sample.language === 'sh'
      ? ['sh', ['-e', '-c', sample.code]]
      : sample.language === 'python'
        ? ['/usr/bin/python3', ['-c', sample.code]]
        : ['node', ['--input-type=module', '-e', sample.code]];
  const extra = sample.language === 'python' ? { PYTHONPATH: path.join(projectRoot, 'sdk/python') } : {};
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: { ...env, ...extra }, encoding: 'utf8', timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ sample, status: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

export interface SampleRun {
  sample: Sample;
  status: number;
  stdout: string;
  stderr: string;
}

/** What a cURL sample prints when its job worked (the SDKs' run raises when a job fails). */
const FINISHED = /"status":"FINISHED"/;

/**
 * Runs the samples, pasted for this server and key, a few at a time (most of a run is the job's
 * own pacing, not CPU); answers what went wrong with each one that failed, not only the first.
 */
export async function failedSamples(
  samples: readonly Sample[],
  options: { baseUrl: string; apiKey: string; cwd: string; env: Record<string, string> },
): Promise<string[]> {
  const failures: string[] = [];
  const queue = [...samples];
  const worker = async () => {
    for (let sample = queue.shift(); sample; sample = queue.shift()) {
      const run = await runSample({ ...sample, code: pasted(sample.code, options.baseUrl, options.apiKey) }, options);
      const printed = sample.language === 'sh' ? FINISHED.test(run.stdout) : run.stdout.trim() !== '';
      if (run.status !== 0 || run.stderr !== '' || !printed) {
        failures.push(`${sample.origin}: exit ${run.status}; ${run.stderr || run.stdout}`.slice(0, 600));
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return failures;
}
