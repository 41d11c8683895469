import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/api/types';
import {
  downloadName,
  formatBytes,
  mediaKindOfUrl,
  mediaKind,
  safeMediaUrl,
  streamedText,
  viewOfResult,
} from '../../../src/components/ServiceRunner/outputModel';
import { summariseInput } from '../../../src/components/ServiceRunner/RecentRuns';

const png = { url: '/v1/files/a.png', content_type: 'image/png', size: 2048 };
const wav = { url: '/v1/files/b', content_type: 'audio/wav', size: 10 };

describe('runner output model: results shown by type', () => {
  it('a media result is one medium of its kind', () => {
    expect(viewOfResult(png)).toEqual({ media: [{ ...png, kind: 'image', path: '' }], text: null, json: null });
  });

  it('media found inside objects and arrays; the rest stays JSON', () => {
    const view = viewOfResult({ images: [png, png], audio: wav, seed: 42 });
    expect(view.media.map((m) => [m.kind, m.path])).toEqual([
      ['image', 'images.0'],
      ['image', 'images.1'],
      ['audio', 'audio'],
    ]);
    expect(view.json).toEqual({ seed: 42 });
  });

  it('text results: a string, or a top-level text field', () => {
    expect(viewOfResult('hello')).toEqual({ media: [], text: 'hello', json: null });
    expect(viewOfResult({ text: 'hi', usage: { tokens: 3 } })).toEqual({ media: [], text: 'hi', json: { usage: { tokens: 3 } } });
  });

  it('classification / embeddings stay JSON', () => {
    const result = { labels: [{ label: 'cat', score: 0.9 }] };
    expect(viewOfResult(result).json).toEqual(result);
    expect(viewOfResult(null)).toEqual({ media: [], text: null, json: null });
  });

  it('shows a chat answer once: its copy in message.content is left out of the JSON', () => {
    const answer = { text: 'Limes.', message: { role: 'assistant', content: 'Limes.' }, finish_reason: 'stop' };
    expect(viewOfResult(answer)).toEqual({ media: [], text: 'Limes.', json: { message: { role: 'assistant' }, finish_reason: 'stop' } });
  });

  it('kinds by content type', () => {
    expect(mediaKind('video/mp4')).toBe('video');
    // A GIF from a video endpoint (or under a video key) is a clip; glTF is a 3D model.
    expect(mediaKind('image/gif', { outputType: 'video' })).toBe('animation');
    expect(mediaKind('image/gif', { path: 'video' })).toBe('animation');
    expect(mediaKind('image/gif', { outputType: 'image', path: 'images.0' })).toBe('image');
    expect(mediaKind('model/gltf-binary')).toBe('model');
    expect(mediaKind('image/gif; charset=binary')).toBe('image');
    expect(mediaKind('application/octet-stream')).toBe('file');
  });

  it('streamed text only while PROCESSING', () => {
    const job = { status: 'PROCESSING', result: { text: 'Hel' } } as Job;
    expect(streamedText(job)).toBe('Hel');
    expect(streamedText({ ...job, status: 'FINISHED' })).toBeNull();
    expect(streamedText({ ...job, result: null })).toBeNull();
  });

  it('URLs resolve against the API host; script URLs are refused', () => {
    expect(safeMediaUrl('/v1/files/a.png', 'https://api.example.com/')).toBe('https://api.example.com/v1/files/a.png');
    expect(safeMediaUrl('https://cdn.example.com/x.png', 'https://api.example.com')).toBe('https://cdn.example.com/x.png');
    expect(safeMediaUrl('javascript:alert(1)', 'https://api.example.com')).toBeNull();
    expect(safeMediaUrl('data:text/html,<script>', 'https://api.example.com')).toBeNull();
    expect(safeMediaUrl('data:image/png;base64,AAAA', 'https://api.example.com')).toBe('data:image/png;base64,AAAA');
  });

  it('sizes and download names', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(downloadName(png)).toBe('a.png');
    expect(downloadName({ url: '/v1/files/abc123', content_type: 'model/gltf-binary', size: 1 })).toBe('abc123.gltf-binary');
  });

  it('recent runs are summarised by their first text input', () => {
    expect(summariseInput({ width: 5, prompt: 'a lime' }, 'Lime Diffusion')).toBe('a lime');
    // An uploaded file's URL before the prompt does not name the run; the prompt does.
    expect(summariseInput({ image: 'http://localhost:3000/media/files/abc.png', prompt: 'make it green' }, 'Cutout')).toBe('make it green');
    expect(summariseInput({ image: 'https://cdn.example.com/a.png', mode: 'fast' }, 'Cutout')).toBe('fast');
    expect(summariseInput({ messages: [{ role: 'user', content: 'Hi there' }] }, 'Chat')).toBe('Hi there');
  });

  it('a run with only files is labelled by its file name, else the service; never its JSON (issue 50, item 6)', () => {
    expect(summariseInput({ image: '/media/files/9f2c1e.png', n: 1 }, 'Lime Cutout')).toBe('9f2c1e.png');
    expect(summariseInput({ image: 'https://cdn.example.com/photos/my%20desk.jpg?w=2' }, 'Lime Cutout')).toBe('my desk.jpg');
    expect(summariseInput({ image: 'data:image/png;base64,AA', n: 1 }, 'Lime Cutout')).toBe('Lime Cutout');
    expect(summariseInput({}, 'Lime Cutout')).toBe('Lime Cutout');
  });

  it('a long prompt is cut to its first words, an unbroken string to 60 characters', () => {
    const prompt = 'a photograph of a lime on a wooden desk beside a window, morning light, shallow depth of field';
    const label = summariseInput({ prompt }, 'Lime Diffusion');
    expect(label).toBe('a photograph of a lime on a wooden desk beside a window…');
    expect(label.length).toBeLessThanOrEqual(61);
    expect(summariseInput({ text: 'x'.repeat(500) }, 'OCR')).toBe(`${'x'.repeat(60)}…`);
    expect(summariseInput({ prompt: '  two\n\nlines  ' }, 'Lime Diffusion')).toBe('two lines');
  });
});

describe('mediaKindOfUrl', () => {
  it("previews an example's file input by its extension (no content type is known for a URL)", () => {
    expect(mediaKindOfUrl('/media/examples/product-shot.png')).toBe('image');
    expect(mediaKindOfUrl('/media/examples/text2video-video.gif?v=1')).toBe('image');
    expect(mediaKindOfUrl('https://x.test/speech.WAV')).toBe('audio');
    expect(mediaKindOfUrl('/media/files/clip.webm#t=1')).toBe('video');
    expect(mediaKindOfUrl('/media/files/model.glb')).toBe('file');
    expect(mediaKindOfUrl('/media/files/png')).toBe('file');
  });
});
