import {
  bandPackets,
  FLUSH,
  MAX_PACKET_LENGTH,
  PktLineReader,
  packet,
  SIDE_BAND_PACKET_LENGTH,
} from './pkt-line.ts';

// A push's two streams as `git receive-pack` speaks them over smart HTTP (gitprotocol-pack):
// the request opens with the client's commands (`<old> <new> <ref>`, the first carrying its
// capabilities), and the answer ends with the report-status (`unpack ok`, then `ok <ref>` or
// `ng <ref> <reason>` per command) and a flush-pkt. With side-band the whole answer is multiplexed:
// band 1 carries the report (itself pkt-lines), band 2 progress shown as `remote: …`. Berth holds the
// report back while the deploy a push started runs, tells the client of it on band 2, and then
// sends the report, with the deployed branch's line turned into `ng` when its deploy failed.

/** A command list longer than this (some 10,000 refs) is not read: the push then deploys nothing. */
const MAX_COMMAND_LIST_BYTES = 1024 * 1024;
/** A SHA-1 or SHA-256 object id, in hex. */
const isObjectId = (id: string) => (id.length === 40 || id.length === 64) && /^[0-9a-f]+$/.test(id);
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f]+/g;
/** How long a reason in an `ng` line may be: the client prints it in parentheses after the ref. */
const MAX_REASON_LENGTH = 300;

export interface PushCommand {
  oldId: string;
  newId: string;
  ref: string;
}

export interface PushRequest {
  commands: PushCommand[];
  capabilities: Set<string>;
}

/** An all-zero object id: a command creating (as old id) or deleting (as new id) its ref. */
export const isZeroId = (id: string) => id.length <= 64 && /^0+$/.test(id);

/** Reads the command list a push request opens with, from the bytes as they stream on to git. */
export class PushRequestReader {
  private readonly reader = new PktLineReader();
  private readonly commands: PushCommand[] = [];
  private readonly capabilities = new Set<string>();
  private seen = 0;
  /** The request's commands once read; null before, and for good when they cannot be read. */
  request: PushRequest | null = null;
  done = false;

  push(chunk: Buffer): void {
    if (this.done) return;
    this.seen += chunk.length;
    // Packet by packet, up to the flush that ends the list: the pack after it is not pkt-lines.
    this.reader.append(chunk);
    try {
      for (let next = this.reader.take(); next; next = this.reader.take()) {
        if (next.packet.kind === 'flush') {
          this.done = true;
          if (this.commands.length > 0)
            this.request = { commands: this.commands, capabilities: this.capabilities };
          return;
        }
        if (next.packet.kind !== 'data' || !this.read(next.packet.data.toString('utf8'))) {
          this.done = true;
          return;
        }
      }
    } catch {
      this.done = true;
      return;
    }
    if (this.seen > MAX_COMMAND_LIST_BYTES) this.done = true;
  }

  /** One line of the command list; false when it is not one Berth reads (a push certificate, say). */
  private read(text: string): boolean {
    const line = text.endsWith('\n') ? text.slice(0, -1) : text;
    // Shallow lines come first, from a shallow clone: nothing to deploy in them.
    if (line.startsWith('shallow ')) return this.commands.length === 0;
    const nul = line.indexOf('\0');
    if (this.commands.length === 0) {
      if (nul < 0) return false;
      for (const capability of line.slice(nul + 1).split(' '))
        if (capability) this.capabilities.add(capability);
    } else if (nul >= 0) return false;
    const [oldId = '', newId = '', ...name] = (nul < 0 ? line : line.slice(0, nul)).split(' ');
    const ref = name.join(' ');
    if (!isObjectId(oldId) || !isObjectId(newId) || !ref) return false;
    this.commands.push({ oldId, newId, ref });
    return true;
  }
}

export interface RefStatus {
  ref: string;
  ok: boolean;
  /** Why an `ng` ref was refused. */
  reason: string;
  /** report-status-v2's `option …` lines after an `ok` (without the word `option`). */
  options: string[];
}

export interface PushReport {
  unpack: string;
  refs: RefStatus[];
}

/** A report-status (or report-status-v2) as pkt-lines ending in a flush; null when it is not one. */
export function parseReport(stream: Buffer): PushReport | null {
  const reader = new PktLineReader();
  let packets: ReturnType<PktLineReader['push']>;
  try {
    packets = reader.push(stream);
  } catch {
    return null;
  }
  if (reader.rest.length > 0) return null;
  let report: PushReport | null = null;
  let ended = false;
  for (const { packet: next } of packets) {
    if (ended) return null;
    if (next.kind === 'flush') {
      ended = true;
      continue;
    }
    if (next.kind !== 'data') return null;
    const text = next.data.toString('utf8');
    const line = text.endsWith('\n') ? text.slice(0, -1) : text;
    if (!report) {
      if (!line.startsWith('unpack ')) return null;
      report = { unpack: line.slice('unpack '.length), refs: [] };
    } else if (line.startsWith('ok ')) {
      report.refs.push({ ref: line.slice(3), ok: true, reason: '', options: [] });
    } else if (line.startsWith('ng ')) {
      const space = line.indexOf(' ', 3);
      report.refs.push({
        ref: space < 0 ? line.slice(3) : line.slice(3, space),
        ok: false,
        reason: space < 0 ? '' : line.slice(space + 1),
        options: [],
      });
    } else if (line.startsWith('option ')) {
      const last = report.refs.at(-1);
      if (!last) return null;
      last.options.push(line.slice('option '.length));
    } else return null;
  }
  return ended ? report : null;
}

export function encodeReport(report: PushReport): Buffer {
  const lines = [packet(`unpack ${report.unpack}\n`)];
  for (const status of report.refs) {
    if (!status.ok) {
      lines.push(packet(`ng ${status.ref} ${status.reason}\n`));
      continue;
    }
    lines.push(packet(`ok ${status.ref}\n`));
    for (const option of status.options) lines.push(packet(`option ${option}\n`));
  }
  lines.push(FLUSH);
  return Buffer.concat(lines);
}

/** One line of text a client prints as it is: no control character, nothing past `max` characters. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(CONTROL, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The report with `ref` refused for `reason`, if git had accepted it (an `ng` line has no options). */
function rejectRef(report: PushReport, ref: string, reason: string): PushReport {
  return {
    unpack: report.unpack,
    refs: report.refs.map((status) =>
      status.ok && status.ref === ref
        ? { ref, ok: false, reason: oneLine(reason, MAX_REASON_LENGTH) || 'rejected', options: [] }
        : status,
    ),
  };
}

/** What git's answer held back: its report and final flush, and how it was framed. */
export interface HeldAnswer {
  /** The held bytes exactly as git wrote them. */
  bytes: Buffer;
  /** Whether the answer is multiplexed in side-band packets. */
  sideBand: boolean;
  /** The report, when git sent one and the answer ended as it should. */
  report: PushReport | null;
}

/**
 * Git's answer to a push as it streams: `push` hands back what may go to the client at once (git's own
 * progress and errors, as whole packets, so Berth's packets never land inside one of git's), and holds
 * the report and the final flush until `end`. An answer that is not pkt-lines is passed on untouched.
 */
export class ReceivePackResponse {
  private readonly reader = new PktLineReader();
  private mode: 'unknown' | 'side-band' | 'plain' | 'raw' = 'unknown';
  private readonly held: Buffer[] = [];
  /** The report's own pkt-lines: band 1's data, or the plain answer's packets. */
  private readonly report: Buffer[] = [];
  private ended = false;

  push(chunk: Buffer): Buffer {
    if (this.mode === 'raw') return chunk;
    let packets: ReturnType<PktLineReader['push']>;
    try {
      packets = this.reader.push(chunk);
    } catch {
      return this.passOn();
    }
    const now: Buffer[] = [];
    for (const [index, { packet: next, bytes }] of packets.entries()) {
      if (this.ended) {
        now.push(bytes);
        continue;
      }
      if (this.mode === 'unknown') {
        const band = next.kind === 'data' ? next.data[0] : undefined;
        // A plain answer opens with `unpack`; only a side-band one can end at once (no report asked).
        if (next.kind === 'flush' || (band !== undefined && band >= 1 && band <= 3)) this.mode = 'side-band';
        else if (next.kind === 'data') this.mode = 'plain';
      }
      if (next.kind === 'flush') {
        this.held.push(bytes);
        // A plain report ends with this flush; a side-band one carries its own inside band 1.
        if (this.mode === 'plain') this.report.push(bytes);
        this.ended = true;
      } else if (next.kind !== 'data' || this.mode === 'unknown') {
        return Buffer.concat([...now, this.passOn(packets.slice(index).map((later) => later.bytes))]);
      } else if (this.mode === 'plain') {
        this.held.push(bytes);
        this.report.push(bytes);
      } else if (next.data[0] === 1) {
        this.held.push(bytes);
        this.report.push(next.data.subarray(1));
      } else {
        now.push(bytes);
      }
    }
    return Buffer.concat(now);
  }

  /** Gives up on reading the answer: everything held and unread goes on as it came. */
  private passOn(unread: Buffer[] = []): Buffer {
    this.mode = 'raw';
    const all = Buffer.concat([...this.held, ...unread, this.reader.rest]);
    this.held.length = 0;
    this.report.length = 0;
    return all;
  }

  end(): HeldAnswer {
    const bytes = Buffer.concat([...this.held, this.mode === 'raw' ? Buffer.alloc(0) : this.reader.rest]);
    const complete = this.ended && this.reader.rest.length === 0 && this.report.length > 0;
    return {
      bytes,
      sideBand: this.mode === 'side-band',
      report: complete ? parseReport(Buffer.concat(this.report)) : null,
    };
  }
}

/** A band-1 packet with no data: git's own keepalive while a push waits (receive.keepAlive). */
const KEEPALIVE = Buffer.from('0005\u0001', 'latin1');

/** What Berth adds to git's answer to a push, framed as the client asked. */
export class PushAnswer {
  private readonly packetLength: number;

  constructor(
    private readonly held: HeldAnswer,
    capabilities: Set<string>,
  ) {
    this.packetLength = capabilities.has('side-band-64k') ? MAX_PACKET_LENGTH : SIDE_BAND_PACKET_LENGTH;
  }

  /**
   * Lines the client shows as `remote: …`; a long line goes in several packets, shown as one. Sent
   * though the client asked for `quiet` (git does so whenever its stderr is no terminal): that silences
   * git's own progress, while what the server says, as hooks' output, is still shown, and a CI log is
   * where a build's lines are wanted.
   */
  progress(lines: string[]): Buffer {
    if (!this.held.sideBand || lines.length === 0) return Buffer.alloc(0);
    const text = lines.map((line) => `${line.replace(CONTROL, ' ')}\n`).join('');
    return Buffer.concat(bandPackets(2, Buffer.from(text, 'utf8'), this.packetLength));
  }

  /** Keeps a quiet answer alive through proxies' idle timeouts (nothing the client shows). */
  keepalive(): Buffer {
    return this.held.sideBand ? KEEPALIVE : Buffer.alloc(0);
  }

  /** Git's report as it was, or with `rejection.ref` refused: the client then exits non-zero. */
  end(rejection?: { ref: string; reason: string }): Buffer {
    const { report } = this.held;
    if (!rejection || !report?.refs.some((status) => status.ok && status.ref === rejection.ref))
      return this.held.bytes;
    const rewritten = encodeReport(rejectRef(report, rejection.ref, rejection.reason));
    if (!this.held.sideBand) return rewritten;
    return Buffer.concat([...bandPackets(1, rewritten, this.packetLength), FLUSH]);
  }
}
