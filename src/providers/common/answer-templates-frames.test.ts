import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FrameText, ProviderAdapter, RenderedResponse } from '../adapter.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { AnswerTemplates } from './answer-templates.ts';
import { ID_ALPHABETS, RandomBytes } from './ids.ts';
import { canonicalRequest, canonicalResponse, SeededRandom } from '../testing/canonical.ts';

const request: CanonicalRequest = canonicalRequest({ provider: 'bedrock', path: '/toy', stream: true });

let ids = 0;
/** The same answer with a fresh id of one shape each time. */
const answer = (text = 'Hello there, traveller.'): CanonicalResponse =>
  canonicalResponse({ id: `msg_01${String(ids++).padStart(22, '0')}`, created: 1_700_000_000 + ids, text, usage: { inputTokens: 3, outputTokens: 5 } });

/** A toy binary framing: a 4-byte length, the payload, a CRC-32 of both (a checksum that changes with every id). */
function toyFrame(payload: string): Uint8Array {
  const body = Buffer.from(payload, 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeUInt32BE(out.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 4 + body.length)), 4 + body.length);
  return out;
}

const toyText: FrameText = {
  text: (frame) => {
    const bytes = Buffer.from(frame);
    if (bytes.readUInt32BE(0) !== bytes.length || crc32(bytes.subarray(0, bytes.length - 4)) !== bytes.readUInt32BE(bytes.length - 4)) return null;
    return bytes.toString('utf8', 4, bytes.length - 4);
  },
  frame: toyFrame,
};

/** A toy adapter: a request id header drawn from the pool, a UUID header, and frames (binary or SSE) naming the answer's id. */
function toyAdapter(over: Partial<ProviderAdapter> & { binary?: boolean } = {}): ProviderAdapter {
  const { binary = true, ...rest } = over;
  return {
    id: 'bedrock',
    render(response: CanonicalResponse, _request: CanonicalRequest, _state: unknown, random?: RandomBytes): RenderedResponse {
      const headers = { 'x-request-id': `req_${random!.chars(20, ID_ALPHABETS.alnum)}`, 'x-uuid': random!.uuid(), 'x-fixed': 'same' };
      const payloads = [JSON.stringify({ start: response.id, created: response.created }), ...response.text.match(/.{1,4}/g)!.map((t) => JSON.stringify({ t })), '{"stop":true}'];
      const frames = binary ? payloads.map(toyFrame) : payloads.map((p) => `data: ${p}\n\n`);
      return { status: 200, headers, stream: { framing: binary ? 'binary' : 'sse', frames, timing: { chunkDelayMs: 0, disconnectAfterChunks: null } } };
    },
    templateKey: () => '',
    frameText: toyText,
    ...rest,
  } as ProviderAdapter;
}

/** What reaches the wire, as text. */
function wire(rendered: RenderedResponse) {
  const text = (f: string | Uint8Array) => (typeof f === 'string' ? f : Buffer.from(f).toString('latin1'));
  const stream = rendered.stream!;
  return { status: rendered.status, headers: rendered.headers, frames: stream.frames.map(text), body: stream.body ? Buffer.from(stream.body()).toString('latin1') : stream.frames.map(text).join('') };
}

/** Answers `n` times from one set of templates; each compared with a fresh rendering of the same values. */
function answerMany(adapter: ProviderAdapter, n: number) {
  const templates = new AnswerTemplates();
  const answers = [];
  for (let i = 0; i < n; i++) {
    const response = answer();
    const templated = wire(templates.render(adapter, response, request, undefined, new SeededRandom(2 * i + 7)));
    expect(templated, `answer ${i + 1}`).toEqual(wire(adapter.render(response, request, undefined, new SeededRandom(2 * i + 7))));
    answers.push({ response, templated });
  }
  return { templates, answers };
}

describe('answer templates: header values and binary frames (FrameText)', () => {
  it('cuts values drawn into headers (a request id, a UUID): each answer from the template carries its own', () => {
    const { templates, answers } = answerMany(toyAdapter({ binary: false }), 6);
    expect(templates.hits).toBe(4);
    const requestIds = answers.map((a) => a.templated.headers['x-request-id']);
    const uuids = answers.map((a) => a.templated.headers['x-uuid']);
    expect(new Set(requestIds).size).toBe(6);
    expect(new Set(uuids).size).toBe(6);
    for (const id of requestIds) expect(id).toMatch(/^req_[A-Za-z0-9]{20}$/);
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(answers.every((a) => a.templated.headers['x-fixed'] === 'same')).toBe(true);
  });

  it('answers binary streams from templates through the adapter’s FrameText: fresh ids, checksums computed afresh', () => {
    const { templates, answers } = answerMany(toyAdapter(), 6);
    expect(templates.hits).toBe(4);
    for (const { response, templated } of answers) {
      // Every frame reads back (its length and CRC hold) and the first names this answer's id.
      const frames = templated.frames.map((f) => Buffer.from(f, 'latin1'));
      expect(frames.every((f) => toyText.text(f) !== null)).toBe(true);
      expect(JSON.parse(toyText.text(frames[0])!)).toEqual({ start: response.id, created: response.created });
      expect(templated.body).toBe(templated.frames.join(''));
    }
  });

  it('frames again only the frames that hold a value: the others are the same bytes in every answer', () => {
    let framed = 0;
    const counting: FrameText = { text: toyText.text, frame: (text) => (framed++, toyFrame(text)) };
    const adapter = toyAdapter({ frameText: counting });
    const templates = new AnswerTemplates();
    for (let i = 0; i < 3; i++) templates.render(adapter, answer(), request, undefined, new SeededRandom(2 * i + 7));
    framed = 0;
    const rendered = templates.render(adapter, answer(), request, undefined, new SeededRandom(99));
    expect(rendered.stream!.frames).toHaveLength(8);
    // Of the eight frames only the first names the answer's id and `created`.
    expect(framed).toBe(1);
    expect(templates.hits).toBe(2);
  });

  it('renders binary streams each time when the adapter gives no FrameText', () => {
    const { templates } = answerMany(toyAdapter({ frameText: undefined }), 5);
    expect(templates.hits).toBe(0);
  });

  it('renders each time when the FrameText cannot read a frame', () => {
    const { templates } = answerMany(toyAdapter({ frameText: { text: () => null, frame: toyFrame } }), 5);
    expect(templates.hits).toBe(0);
  });

  it('keeps no template whose frames do not come back byte for byte (a FrameText that leaves the checksum stale)', () => {
    const stale: FrameText = {
      text: toyText.text,
      // The payload's bytes with a checksum of nothing: not the frame the adapter renders.
      frame: (text) => {
        const out = Buffer.from(toyFrame(text));
        out.writeUInt32BE(0, out.length - 4);
        return out;
      },
    };
    const { templates } = answerMany(toyAdapter({ frameText: stale }), 5);
    expect(templates.hits).toBe(0);
  });
});
