import { describe, expect, it } from 'vitest';
import { bandPackets, FLUSH, MAX_PACKET_LENGTH, PktLineError, PktLineReader, packet } from './pkt-line.ts';
import { failureReason, shownLine } from './push-deploy.ts';
import {
  encodeReport,
  PushAnswer,
  PushRequestReader,
  parseReport,
  ReceivePackResponse,
} from './receive-pack-stream.ts';

// The framing of a push's request and answer (gitprotocol-pack, gitprotocol-capabilities), byte for
// byte as git 2.39 writes them; the real client's view of it is in the docker suite (git-push.docker.test.ts).

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const ZERO = '0'.repeat(40);
const band = (n: number, data: Buffer | string) =>
  packet(Buffer.concat([Buffer.from([n]), Buffer.isBuffer(data) ? data : Buffer.from(data)]));
const report = (...lines: string[]) => Buffer.concat([...lines.map((line) => packet(`${line}\n`)), FLUSH]);
/** git's answer with side-band: the report inside band 1, then the outer flush. */
const sideBandAnswer = (...lines: string[]) => Buffer.concat([band(1, report(...lines)), FLUSH]);

/** Feeds the bytes a few at a time, as a pipe may cut them, and collects what goes on at once. */
function feed(response: ReceivePackResponse, bytes: Buffer, step = 3): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += step) out.push(response.push(bytes.subarray(at, at + step)));
  return Buffer.concat(out);
}

/** The band-2 text of an answer's packets (what the client prints after `remote: `). */
function progressText(bytes: Buffer): string {
  const reader = new PktLineReader();
  return reader
    .push(bytes)
    .map(({ packet: next }) => (next.kind === 'data' && next.data[0] === 2 ? next.data.subarray(1) : ''))
    .join('');
}

describe('pkt-lines', () => {
  it('reads whole packets however the stream is cut, flush, delim and response-end included', () => {
    const stream = Buffer.concat([packet('hello\n'), FLUSH, Buffer.from('00010002'), packet('')]);
    const reader = new PktLineReader();
    const packets = [];
    for (const byte of stream) packets.push(...reader.push(Buffer.from([byte])));
    expect(packets.map((p) => p.packet.kind)).toEqual(['data', 'flush', 'delim', 'response-end', 'data']);
    expect(packets[0]?.bytes.toString()).toBe('000ahello\n');
    expect(reader.rest).toHaveLength(0);
  });

  it('refuses a header that is not a length, and one past the largest packet', () => {
    expect(() => new PktLineReader().push(Buffer.from('zzzzdata'))).toThrow(PktLineError);
    expect(() => new PktLineReader().push(Buffer.from('fff1'))).toThrow(
      'a packet cannot be 65521 bytes long',
    );
    expect(() => packet(Buffer.alloc(MAX_PACKET_LENGTH - 3))).toThrow(PktLineError);
    expect(packet(Buffer.alloc(MAX_PACKET_LENGTH - 4))).toHaveLength(MAX_PACKET_LENGTH);
  });

  it('cuts band data into packets of the largest size the client takes', () => {
    const data = Buffer.alloc(65515 * 2 + 10, 'x');
    const packets = bandPackets(2, data, MAX_PACKET_LENGTH);
    expect(packets.map((p) => p.length)).toEqual([65520, 65520, 15]);
    expect(packets[0]?.subarray(0, 5).toString('latin1')).toBe('fff0\u0002');
    expect(bandPackets(1, Buffer.alloc(1990), 1000).map((p) => p.length)).toEqual([1000, 1000]);
  });
});

describe('reading a push request', () => {
  it("reads the commands and the first one's capabilities, through shallow lines, in any cut", () => {
    const body = Buffer.concat([
      packet(`shallow ${OLD}`),
      packet(`${OLD} ${NEW} refs/heads/main\0 report-status-v2 side-band-64k quiet object-format=sha1`),
      packet(`${ZERO} ${NEW} refs/heads/feature\n`),
      FLUSH,
      Buffer.from('PACK...'),
    ]);
    // The whole body at once (the pack after the flush is no pkt-line), and a few bytes at a time.
    const whole = new PushRequestReader();
    whole.push(body);
    expect(whole.request?.commands).toHaveLength(2);
    const reader = new PushRequestReader();
    for (let at = 0; at < body.length; at += 7) reader.push(body.subarray(at, at + 7));
    expect(reader.done).toBe(true);
    expect(reader.request?.commands).toEqual([
      { oldId: OLD, newId: NEW, ref: 'refs/heads/main' },
      { oldId: ZERO, newId: NEW, ref: 'refs/heads/feature' },
    ]);
    expect([...(reader.request?.capabilities ?? [])]).toEqual([
      'report-status-v2',
      'side-band-64k',
      'quiet',
      'object-format=sha1',
    ]);
  });

  it('gives up on what it does not read: a push certificate, a malformed line, not pkt-lines', () => {
    for (const body of [
      Buffer.concat([packet('push-cert\0 report-status'), FLUSH]),
      Buffer.concat([packet(`${OLD} nothex refs/heads/main\0 report-status`), FLUSH]),
      Buffer.concat([packet(`${OLD} ${NEW} refs/heads/main`), FLUSH]),
      Buffer.from('PACK\u0000\u0000'),
    ]) {
      const reader = new PushRequestReader();
      reader.push(body);
      expect(reader.done).toBe(true);
      expect(reader.request).toBeNull();
    }
  });
});

describe("holding back git's answer to a push", () => {
  it("passes git's progress on at once, as whole packets, and holds the side-band report and flush", () => {
    const progress = band(2, 'Resolving deltas: 100% (2/2), done.\n');
    const answer = Buffer.concat([progress, sideBandAnswer('unpack ok', 'ok refs/heads/main')]);
    const response = new ReceivePackResponse();
    const now = feed(response, answer);
    expect(now.equals(progress)).toBe(true);
    const held = response.end();
    expect(held.sideBand).toBe(true);
    expect(held.bytes.equals(answer.subarray(progress.length))).toBe(true);
    expect(held.report).toEqual({
      unpack: 'ok',
      refs: [{ ref: 'refs/heads/main', ok: true, reason: '', options: [] }],
    });
  });

  it('holds a plain report (a client without side-band) and reads report-status-v2 options', () => {
    const answer = report(
      'unpack ok',
      'ok refs/heads/main',
      `option old-oid ${OLD}`,
      `option new-oid ${NEW}`,
      'ng refs/heads/other non-fast-forward',
    );
    const response = new ReceivePackResponse();
    expect(feed(response, answer)).toHaveLength(0);
    const held = response.end();
    expect(held.sideBand).toBe(false);
    expect(held.bytes.equals(answer)).toBe(true);
    expect(held.report?.refs).toEqual([
      { ref: 'refs/heads/main', ok: true, reason: '', options: [`old-oid ${OLD}`, `new-oid ${NEW}`] },
      { ref: 'refs/heads/other', ok: false, reason: 'non-fast-forward', options: [] },
    ]);
    // Encoding it again gives git's bytes back.
    expect(held.report && encodeReport(held.report).equals(answer)).toBe(true);
  });

  it('passes an answer that is not pkt-lines on untouched, and reads no report in it', () => {
    const response = new ReceivePackResponse();
    const text = Buffer.from('error: something else entirely\n');
    expect(feed(response, text, 100).equals(text)).toBe(true);
    expect(response.end()).toEqual({ bytes: Buffer.alloc(0), sideBand: false, report: null });
    // A side-band answer cut short has no report either.
    const cut = new ReceivePackResponse();
    feed(cut, band(1, report('unpack ok', 'ok refs/heads/main')));
    expect(cut.end().report).toBeNull();
  });
});

describe("the answer Berth sends for a push's deploy", () => {
  const sideBand64k = new Set(['report-status', 'side-band-64k']);

  function held(answer: Buffer) {
    const response = new ReceivePackResponse();
    feed(response, answer);
    return response.end();
  }

  it('refuses only the deployed branch, keeping the other refs and their options', () => {
    const answer = held(
      sideBandAnswer('unpack ok', 'ok refs/heads/main', `option new-oid ${NEW}`, 'ok refs/heads/feature'),
    );
    const refused = new PushAnswer(answer, new Set(['report-status-v2', 'side-band-64k'])).end({
      ref: 'refs/heads/main',
      reason: 'deploy failed: exit\ncode 3',
    });
    const outer = new PktLineReader().push(refused);
    expect(outer.at(-1)?.packet.kind).toBe('flush');
    const inner = Buffer.concat(
      outer.flatMap(({ packet: next }) => (next.kind === 'data' ? [next.data.subarray(1)] : [])),
    );
    expect(parseReport(inner)?.refs).toEqual([
      { ref: 'refs/heads/main', ok: false, reason: 'deploy failed: exit code 3', options: [] },
      { ref: 'refs/heads/feature', ok: true, reason: '', options: [] },
    ]);
  });

  it("sends git's report unchanged when nothing is refused, or the ref was not accepted", () => {
    const bytes = sideBandAnswer('unpack ok', 'ng refs/heads/main non-fast-forward');
    const answer = new PushAnswer(held(bytes), sideBand64k);
    expect(answer.end().equals(bytes)).toBe(true);
    expect(answer.end({ ref: 'refs/heads/main', reason: 'deploy failed' }).equals(bytes)).toBe(true);
  });

  it('talks on band 2 with side-band, splitting long lines; a client without it gets only the report', () => {
    const answer = new PushAnswer(held(sideBandAnswer('unpack ok', 'ok refs/heads/main')), sideBand64k);
    const long = 'y'.repeat(70_000);
    const progress = answer.progress(['Step 1/2 : FROM busybox', long, 'carriage\rreturn']);
    expect(progressText(progress)).toBe(`Step 1/2 : FROM busybox\n${long}\ncarriage return\n`);
    expect(answer.keepalive().toString('latin1')).toBe('0005\u0001');
    // side-band (not 64k): packets of at most 1000 bytes.
    const small = new PushAnswer(held(sideBandAnswer('unpack ok', 'ok refs/heads/main')), new Set());
    const packets = new PktLineReader().push(small.progress(['z'.repeat(2500)]));
    expect(packets.map((p) => p.bytes.length)).toEqual([1000, 1000, 516]);

    const plainBytes = report('unpack ok', 'ok refs/heads/main');
    const plain = new PushAnswer(held(plainBytes), new Set(['report-status']));
    expect(plain.progress(['Building'])).toHaveLength(0);
    expect(plain.keepalive()).toHaveLength(0);
    const refused = plain.end({ ref: 'refs/heads/main', reason: 'deploy failed' });
    expect(refused.toString()).toBe('000eunpack ok\n0025ng refs/heads/main deploy failed\n0000');
  });
});

describe("a deploy's log as the client shows it", () => {
  it('drops the time stamp, and marks warnings and errors as git does', () => {
    expect(shownLine('2026-01-01 12:00:00 +0000 INFO -- : Step 1/2 : FROM busybox').text).toBe(
      'Step 1/2 : FROM busybox',
    );
    expect(shownLine('2026-01-01 12:00:00 +0000 WARN -- : slow').text).toBe('warning: slow');
    expect(shownLine('2026-01-01 12:00:00 +0000 ERROR -- : boom')).toEqual({
      text: 'error: boom',
      error: true,
    });
    expect(shownLine('--- Attempt 2 of 3 ---').text).toBe('--- Attempt 2 of 3 ---');
  });

  it("says why a deploy failed from the worker's last error line", () => {
    expect(failureReason('error: Operation 7 failed: exit code 3', 7)).toBe('deploy failed: exit code 3');
    expect(failureReason('error: No Dockerfile', 7)).toBe('deploy failed: No Dockerfile');
    expect(failureReason('', 7)).toBe('deploy failed');
  });
});
