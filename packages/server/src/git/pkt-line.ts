// Git's pkt-line framing (gitprotocol-common): four hex digits giving a packet's length, themselves
// included, then its data. `0000` is a flush-pkt, `0001` a delim-pkt, `0002` a response-end-pkt.

/** The longest packet git sends or takes, header included (LARGE_PACKET_MAX). */
export const MAX_PACKET_LENGTH = 65520;
/** The longest packet of a client that asked for `side-band` rather than `side-band-64k`. */
export const SIDE_BAND_PACKET_LENGTH = 1000;
const HEADER = 4;

export type Packet = { kind: 'data'; data: Buffer } | { kind: 'flush' | 'delim' | 'response-end' };

export class PktLineError extends Error {}

export const FLUSH = Buffer.from('0000', 'ascii');

/** One data packet; throws when the data does not fit one. */
export function packet(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const length = bytes.length + HEADER;
  if (length > MAX_PACKET_LENGTH) throw new PktLineError(`A packet holds at most ${MAX_PACKET_LENGTH} bytes`);
  return Buffer.concat([Buffer.from(length.toString(16).padStart(HEADER, '0'), 'ascii'), bytes]);
}

/**
 * Data for a side-band channel (1: the answer proper, 2: progress shown as `remote: …`, 3: a fatal
 * error), cut into as many packets as the client's packet length needs: a band packet is the header,
 * the band's byte, then at most `packetLength - 5` bytes of data.
 */
export function bandPackets(band: 1 | 2 | 3, data: Buffer, packetLength: number): Buffer[] {
  const room = packetLength - HEADER - 1;
  const packets: Buffer[] = [];
  for (let at = 0; at < data.length; at += room) {
    packets.push(packet(Buffer.concat([Buffer.from([band]), data.subarray(at, at + room)])));
  }
  return packets;
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  return -1;
}

function lengthAt(bytes: Buffer, at: number): number {
  let length = 0;
  for (let i = 0; i < HEADER; i += 1) {
    const digit = hexDigit(bytes[at + i] ?? -1);
    if (digit < 0) throw new PktLineError('Not a pkt-line: its length is not four hex digits');
    length = length * 16 + digit;
  }
  if (length === 3 || length > MAX_PACKET_LENGTH)
    throw new PktLineError(`Not a pkt-line: a packet cannot be ${length} bytes long`);
  return length;
}

const SPECIAL: Record<number, Packet> = {
  0: { kind: 'flush' },
  1: { kind: 'delim' },
  2: { kind: 'response-end' },
};

/** Cuts a byte stream into whole packets, however its chunks fall. */
export class PktLineReader {
  private pending: Buffer = Buffer.alloc(0);

  /**
   * The packets this chunk completes, each with its bytes as they came. A malformed header throws
   * PktLineError; `rest` then holds every byte not handed out as a packet (this chunk's included).
   */
  push(chunk: Buffer): { packet: Packet; bytes: Buffer }[] {
    this.append(chunk);
    const packets: { packet: Packet; bytes: Buffer }[] = [];
    const start = this.pending;
    try {
      for (let next = this.take(); next; next = this.take()) packets.push(next);
    } catch (error) {
      this.pending = start;
      throw error;
    }
    return packets;
  }

  /** Adds bytes to read with `take`. */
  append(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
  }

  /** The next whole packet, or null until its bytes have come; throws PktLineError on a malformed one. */
  take(): { packet: Packet; bytes: Buffer } | null {
    if (this.pending.length < HEADER) return null;
    const length = lengthAt(this.pending, 0);
    const special = SPECIAL[length];
    const size = special ? HEADER : length;
    if (this.pending.length < size) return null;
    const bytes = this.pending.subarray(0, size);
    this.pending = this.pending.subarray(size);
    return { packet: special ?? { kind: 'data', data: bytes.subarray(HEADER) }, bytes };
  }

  /** Bytes of a packet not complete yet (or not taken). */
  get rest(): Buffer {
    return this.pending;
  }
}
