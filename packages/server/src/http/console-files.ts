import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentType } from 'mime-types';

/** The console's build output that is not one of its files to serve: the page is sent by consoleDocument. */
const NOT_SERVED = new Set(['index.html', 'route-preloads.json', 'prerendered.json']);

type Encoding = 'br' | 'gzip';

interface Variant {
  body: Buffer;
  etag: string;
}

interface Variants {
  identity: Variant;
  /** The build's precompressed copies (file.br, file.gz), when it wrote them. */
  encoded: Partial<Record<Encoding, Variant>>;
  /** The encodings to offer, best first. */
  offered: Encoding[];
}

interface ConsoleFile {
  type: string;
  /** Vite fingerprints what it writes under assets/: such a file never changes under its name. */
  immutable: boolean;
  /** Read on the first request for the file, then kept. */
  read: () => Promise<Variants>;
}

function variantOf(body: Buffer, suffix = ''): Variant {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { body, etag: `"${hash}${suffix}"` };
}

/** If-None-Match names the variant the browser holds (a list, weak or strong, compares the same). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}

/** The build's files below `directory`, as `a/b.js`; names starting with a dot (none the build writes) are left out. */
async function filesUnder(directory: string, prefix = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(directory, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.'))
      .map((entry) => {
        const name = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) return filesUnder(directory, name);
        return Promise.resolve(entry.isFile() ? [name] : []);
      }),
  );
  return nested.flat();
}

/**
 * The built console's files, kept in memory once read: about 2 MB with their compressed copies. A page
 * loads 10 to 20 of them, and answering each from a buffer instead of a stat, an open and a stream per
 * request lets them arrive while the server also answers the page's API calls.
 */
export class ConsoleFiles {
  private constructor(private readonly files: Map<string, ConsoleFile>) {}

  /** Lists the files now; each is read when first asked for (a test server never reads most of them). */
  static async load(webDist: string): Promise<ConsoleFiles> {
    const names = await filesUnder(webDist);
    const present = new Set(names);
    const files = new Map<string, ConsoleFile>();
    for (const name of names) {
      if (NOT_SERVED.has(name) || name.endsWith('.br') || name.endsWith('.gz')) continue;
      let variants: Promise<Variants> | undefined;
      const readVariants = async (): Promise<Variants> => {
        const read = (file: string) => fs.readFile(path.join(webDist, file));
        // A compressed copy that cannot be read is done without: the file itself still goes.
        const copy = async (suffix: string, tag: string): Promise<Variant | undefined> => {
          if (!present.has(`${name}${suffix}`)) return undefined;
          return read(`${name}${suffix}`).then(
            (body) => variantOf(body, tag),
            () => undefined,
          );
        };
        const encoded: Variants['encoded'] = {};
        const [br, gzip] = await Promise.all([copy('.br', '-br'), copy('.gz', '-gzip')]);
        if (br) encoded.br = br;
        if (gzip) encoded.gzip = gzip;
        const offered = (['br', 'gzip'] as const).filter((encoding) => encoded[encoding]);
        return { identity: variantOf(await read(name)), encoded, offered };
      };
      files.set(`/${name}`, {
        type: contentType(path.extname(name)) || 'application/octet-stream',
        immutable: name.startsWith('assets/'),
        read: () => {
          // A failed read is not kept: the next request tries again.
          variants ??= readVariants().catch((error: unknown) => {
            variants = undefined;
            throw error;
          });
          return variants;
        },
      });
    }
    return new ConsoleFiles(files);
  }

  /** The paths served, each `/name`. */
  paths(): string[] {
    return [...this.files.keys()];
  }

  /**
   * Answers a file by its decoded path (as the router gives it): true once sent, false when there is
   * none. Never the reply itself: a reply is thenable, so awaiting it gave undefined and the caller
   * answered a second time (issue 35).
   */
  async send(pathname: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const file = this.files.get(pathname);
    if (!file) return false;
    const { identity, encoded, offered } = await file.read();
    let variant = identity;
    if (offered.length > 0) {
      reply.header('vary', 'Accept-Encoding');
      const encoding = negotiate(request.headers['accept-encoding'] ?? '', offered) as Encoding | null;
      const chosen = encoding ? encoded[encoding] : undefined;
      if (encoding && chosen) {
        reply.header('content-encoding', encoding);
        variant = chosen;
      }
    }
    reply
      .header('content-type', file.type)
      .header('etag', variant.etag)
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (matchesEtag(request.headers['if-none-match'], variant.etag)) reply.code(304).send();
    else reply.header('content-length', variant.body.length).send(variant.body);
    return true;
  }
}
