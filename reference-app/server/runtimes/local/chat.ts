import type { RunResult } from '../runtime';
import { hash32, prng, wordsOf } from './hash';
import { int, invalid, num } from './inputs';
import type { DemoJob } from './job';

// llm: a deterministic reply composed from the conversation (its last user message, keywords,
// whether it asks something, the system prompt), streamed token by token like a real model.
// It never pretends to answer: it says it is the local demo and reflects what it was given.

interface Message {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const ROLES = ['system', 'user', 'assistant'] as const;
const COMMON = new Set(
  'a an the and or but if of in on at to for by with from is are was were be been it this that these those i you he she we they me my your our what how why when where who which can could would should will do does did please about tell give make'.split(
    ' ',
  ),
);
const CLOSINGS = [
  'Run the real model on a GPU to get an actual answer.',
  'A hosted model would answer this properly.',
  'Publish or pick a hosted runtime for a real reply.',
];

export function readMessages(value: unknown): Message[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid('messages', 'must be a non-empty array of { role, content }');
  return value.map((m, i) => {
    if (typeof m !== 'object' || m === null) throw invalid(`messages[${i}]`, 'must be an object { role, content }');
    const { role, content } = m as Record<string, unknown>;
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role))
      throw invalid(`messages[${i}].role`, 'must be system, user or assistant');
    if (typeof content !== 'string') throw invalid(`messages[${i}].content`, 'must be a string');
    return { role: role as Message['role'], content };
  });
}

function keywords(text: string, count: number): string[] {
  const seen = new Set<string>();
  for (const w of wordsOf(text)) if (w.length > 2 && !COMMON.has(w)) seen.add(w);
  return [...seen].slice(0, count);
}

const quote = (s: string, max: number) => `“${s.length > max ? `${s.slice(0, max - 1)}…` : s}”`;
const list = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The whole reply for a conversation (pure, so tests can compare it with the streamed tokens). */
export function composeReply(messages: Message[], temperature: number): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const system = messages.find((m) => m.role === 'system');
  const turns = messages.filter((m) => m.role !== 'system').length;
  const parts = ['This is the local-demo runtime, not the real model, so it can only reflect your message.'];
  if (!lastUser || lastUser.content.trim() === '') {
    parts.push('There is no user message to reply to yet.');
  } else {
    const words = wordsOf(lastUser.content);
    const topics = keywords(lastUser.content, 4);
    parts.push(`You wrote ${words.length} word${words.length === 1 ? '' : 's'}: ${quote(lastUser.content.trim(), 80)}.`);
    if (topics.length > 0) parts.push(`It is about ${list(topics.map((t) => `“${t}”`))}.`);
    if (/\?\s*$/.test(lastUser.content.trim())) parts.push('You asked a question; the real model would answer it here.');
  }
  if (system) parts.push(`My instructions say ${quote(system.content.trim(), 60)}.`);
  if (turns > 1) parts.push(`This conversation has ${turns} turns so far.`);
  // Temperature picks among closings, so it changes the text the way sampling would, yet stays
  // deterministic for the same conversation and temperature.
  const pick = temperature <= 0 ? 0 : prng(hash32(messages, temperature))() * CLOSINGS.length;
  parts.push(CLOSINGS[Math.floor(pick)]);
  return parts.join(' ');
}

/** Splits text into tokens that concatenate back to it exactly (a word with its following space). */
export const tokenize = (reply: string) => reply.match(/\S+\s*/g) ?? [];

export async function chat(job: DemoJob): Promise<RunResult> {
  const messages = readMessages(job.input.messages);
  const maxTokens = int(job.input, 'max_tokens', { fallback: 512, min: 1, max: 32_768 });
  const temperature = num(job.input, 'temperature', { fallback: 0.7, min: 0, max: 2 });
  num(job.input, 'top_p', { fallback: 0.95, min: 0, max: 1 });

  await job.step(0.05, 'Reading the conversation');
  const all = tokenize(composeReply(messages, temperature));
  const tokens = all.slice(0, maxTokens);
  let text = '';
  for (const [i, token] of tokens.entries()) {
    job.ctx.partialText(token);
    text += token;
    if (i % 8 === 7) job.ctx.progress(0.1 + (0.85 * (i + 1)) / tokens.length, `Generated ${i + 1} of up to ${maxTokens} tokens`);
    await job.pause(0.2);
  }
  const promptTokens = messages.reduce((n, m) => n + tokenize(m.content).length, 0);
  return {
    text,
    message: { role: 'assistant', content: text },
    finish_reason: tokens.length < all.length ? 'length' : 'stop',
    usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length },
  };
}
