import type { RunResult } from '../runtime';
import { type Audio, durationOf, levels, readAudio } from './audio';
import { bool, text } from './inputs';
import { type DemoJob, isMilestone } from './job';
import { round } from './numbers';

// stt: the local demo cannot recognise words, so it transcribes what it can really measure: where
// the recording has sound (voice-activity segments by energy), how long and how loud each is.
// Each segment streams as a line of the transcript, as a real model streams its words.

const FRAME_S = 0.02;
const MIN_GAP_S = 0.25;
const MIN_SEGMENT_S = 0.08;

export interface Segment {
  start: number;
  end: number;
  /** Level in dBFS (RMS). */
  level_db: number;
}

export function findSegments(audio: Audio): Segment[] {
  const frames = levels(audio, FRAME_S);
  const sorted = [...frames].sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const peak = sorted.at(-1) ?? 0;
  // Above the noise floor, but a steady recording (floor ≈ peak) still counts as one sound.
  const threshold = Math.max(Math.min(floor * 3, peak * 0.5), peak * 0.1, 1e-4);
  const segments: Segment[] = [];
  let open: { from: number; to: number; sum: number; count: number } | undefined;
  frames.forEach((rms, i) => {
    if (rms < threshold) return;
    if (open && (i - open.to) * FRAME_S <= MIN_GAP_S) {
      open.to = i + 1;
      open.sum += rms * rms;
      open.count++;
      return;
    }
    if (open) segments.push(close(open));
    open = { from: i, to: i + 1, sum: rms * rms, count: 1 };
  });
  if (open) segments.push(close(open));
  const total = durationOf(audio);
  return segments.filter((s) => s.end - s.start >= MIN_SEGMENT_S).map((s) => ({ ...s, end: Math.min(s.end, round(total)) }));
}

function close(open: { from: number; to: number; sum: number; count: number }): Segment {
  const rms = Math.sqrt(open.sum / open.count);
  return { start: round(open.from * FRAME_S), end: round(open.to * FRAME_S), level_db: round(20 * Math.log10(rms), 1) };
}

const loudness = (db: number) => (db > -12 ? 'loud' : db > -24 ? 'clear' : db > -36 ? 'quiet' : 'very quiet');

export async function transcribe(job: DemoJob): Promise<RunResult> {
  const language = text(job.input, 'language', { max: 20 });
  const timestamps = bool(job.input, 'timestamps', false);
  await job.step(0.05, 'Reading the recording');
  const audio = await readAudio(job, 'audio');
  await job.step(0.2, 'Finding speech');
  const segments = findSegments(audio);
  const duration = round(durationOf(audio));
  const lines: string[] = [];
  const emit = (line: string) => {
    const piece = `${lines.length > 0 ? '\n' : ''}${line}`;
    lines.push(line);
    job.ctx.partialText(piece);
  };
  emit(`[local-demo] ${duration} s of audio, ${segments.length} segment${segments.length === 1 ? '' : 's'} with sound.`);
  for (const [i, s] of segments.entries()) {
    emit(`[${s.start.toFixed(2)}–${s.end.toFixed(2)} s] sound, ${loudness(s.level_db)} (${s.level_db} dBFS)`);
    if (isMilestone(i, segments.length)) {
      await job.step(0.25 + (0.7 * (i + 1)) / segments.length, `Transcribed ${i + 1} of ${segments.length} segments`);
    }
  }
  await job.step(0.97, 'Writing the transcript');
  const transcript = lines.join('\n');
  return {
    text: transcript,
    language: language || 'und',
    duration_s: duration,
    sample_rate: audio.sampleRate,
    segments: segments.map((s) => ({ ...s, text: `[sound, ${loudness(s.level_db)}]` })),
    ...(timestamps ? { words: segments.map((s) => ({ start: s.start, end: s.end, word: '[sound]' })) } : {}),
    notes: ['The local-demo runtime detects where there is sound but does not recognise words.'],
  };
}
