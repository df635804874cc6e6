import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { WRITE_SCOPES } from '@berth/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadCallerAccess } from '../auth/caller-access.ts';
import type { TokenService } from '../auth/tokens/token.service.ts';
import type { Db } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import { apiNotFound } from '../http/not-found.ts';
import type { OperationsService } from '../operations/operations.service.ts';
import type { GitRepositoriesService, GitRepository } from './git-repositories.service.ts';
import { answerPush } from './push-deploy.ts';
import { PushRequestReader, ReceivePackResponse } from './receive-pack-stream.ts';

// Git's smart HTTP protocol for the apps' remotes: `git push http://HOST/git/<env>/<app>.git main`.
// Berth checks the caller (their API token as the password, any user name) and their deploy
// permission, then hands the request to `git http-backend` (the git binary's own CGI program) on the
// app's bare repository. A push that moves `main` (or `master`) starts a deploy of it, and its answer
// tells the client of that deploy as it runs (push-deploy.ts).

const GIT_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'];
const SERVICES = ['git-upload-pack', 'git-receive-pack'] as const;
type GitService = (typeof SERVICES)[number];
const writeScopes = new Set<string>(WRITE_SCOPES);

/** The password of a Basic header (git sends the token there), or a bearer token. */
function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization ?? '';
  if (header.length > 8192) return null;
  if (/^bearer\s/i.test(header)) return header.slice(7).trim() || null;
  if (!/^basic\s/i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) || null : null;
}

/** Git shows a failed request's status; the text is for people reading it with curl. */
function refuse(reply: FastifyReply, status: number, message: string) {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="Berth", charset="UTF-8"');
  return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/** Reads a push's commands off its body as it streams on to git (inflated on the side when gzipped). */
function readCommands(body: Readable, encoding: string | undefined): PushRequestReader {
  const reader = new PushRequestReader();
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    const inflated = createGunzip();
    inflated.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      if (reader.done) inflated.destroy();
    });
    // A body git cannot read either: git answers it.
    inflated.on('error', () => undefined);
    body.on('data', (chunk: Buffer) => {
      if (!reader.done && !inflated.destroyed) inflated.write(chunk);
    });
    body.on('end', () => inflated.end());
  } else {
    body.on('data', (chunk: Buffer) => reader.push(chunk));
  }
  return reader;
}

/** Writes to a response whose client may have left (a push's client may go mid-deploy). */
function sendTo(raw: ServerResponse, bytes: Buffer) {
  if (bytes.length > 0 && !raw.destroyed && !raw.writableEnded) raw.write(bytes);
}

function endOf(raw: ServerResponse, bytes?: Buffer) {
  if (!raw.destroyed && !raw.writableEnded) raw.end(bytes);
}

/** Stops a request body past `limit` bytes. */
function capped(limit: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) return done(new Error(`A push may send at most ${Math.round(limit / 1048576)} MB`));
      return done(null, chunk);
    },
  });
}

export async function gitHttpRoutes(
  fastify: FastifyInstance,
  deps: {
    db: Db;
    tokens: TokenService;
    repositories: GitRepositoriesService;
    operations: OperationsService;
    publicUrl: string;
    gitDir: string;
    maxPushBytes: number;
  },
) {
  const { db, tokens, repositories, gitDir } = deps;
  // A stop ends the pushes still telling of their deploys (the deploys go on) rather than wait for them.
  const stopping = new AbortController();
  fastify.addHook('preClose', async () => stopping.abort());
  fastify.setNotFoundHandler(apiNotFound);
  // The pack streams to git as it arrives: the parser leaves the body unread.
  fastify.addContentTypeParser(GIT_TYPES, (_request, _payload, done) => done(null, undefined));

  async function serve(request: FastifyRequest, reply: FastifyReply, service: GitService, suffix: string) {
    const { environment, repository } = request.params as { environment: string; repository: string };
    if (!repository.endsWith('.git') || repository.length <= 4) return apiNotFound(request, reply);
    const token = tokenOf(request);
    if (!token) return refuse(reply, 401, 'Sign in with your Berth API token as the password');
    let found: GitRepository;
    let caller: Awaited<ReturnType<typeof loadCallerAccess>>;
    try {
      const signedIn = await tokens.authenticate(token);
      if (!writeScopes.has(signedIn.token.scope)) return refuse(reply, 403, 'This session is read-only');
      if (!signedIn.user.verified) return refuse(reply, 403, 'Verify your email address first');
      caller = await loadCallerAccess(db, signedIn.user, signedIn.token);
      found = await repositories.find(caller, environment, repository.slice(0, -4));
      if (service === 'git-receive-pack') await repositories.ensure(found);
    } catch (error) {
      if (error instanceof ApiError) return refuse(reply, error.status, error.message);
      throw error;
    }
    const pushing = service === 'git-receive-pack' && request.method === 'POST';

    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: gitDir,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${found.appId}.git${suffix}`,
        REQUEST_METHOD: request.method,
        QUERY_STRING: request.method === 'GET' ? `service=${service}` : '',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        ...(request.headers['content-length'] ? { CONTENT_LENGTH: request.headers['content-length'] } : {}),
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        // http-backend lets a REMOTE_USER push.
        REMOTE_USER: caller.user.email,
        REMOTE_ADDR: request.ip,
        GIT_HTTP_MAX_REQUEST_BUFFER: String(deps.maxPushBytes),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // git exits early on a bad request: what the client still sends then goes nowhere, not to a crash.
    child.stdin.on('error', () => undefined);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    let commands: PushRequestReader | null = null;
    if (request.method === 'POST') {
      const limit = capped(deps.maxPushBytes);
      limit.on('error', () => child.kill());
      // A client gone mid-upload never ends the body: git would wait for the rest of it for good.
      request.raw.once('close', () => {
        if (!request.raw.complete) child.kill();
      });
      const body = request.raw.pipe(limit);
      if (pushing) commands = readCommands(body, request.headers['content-encoding']);
      body.pipe(child.stdin);
    } else {
      child.stdin.end();
    }

    reply.hijack();
    const raw = reply.raw;
    let head = Buffer.alloc(0);
    let headersSent = false;
    // A push's answer goes through `answer`, which holds git's report back for the deploy's story.
    const answer = pushing ? new ReceivePackResponse() : null;
    let reading = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        sendTo(raw, reading && answer ? answer.push(chunk) : chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') + 4 : head.indexOf('\n\n') + 2;
      if (end < 2) return;
      // CGI headers: `Status: 200 OK` and the response's own.
      let status = 200;
      const headers: Record<string, string> = { 'cache-control': 'no-cache' };
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'status') status = Number.parseInt(value, 10) || 500;
        else headers[name] = value;
      }
      raw.writeHead(status, headers);
      headersSent = true;
      reading = answer !== null && status === 200;
      const body = head.subarray(end);
      sendTo(raw, reading && answer ? answer.push(body) : body);
    });
    const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    const code = await exit;
    if (!headersSent) {
      request.log.warn({ stderr: stderr.slice(0, 1000) }, 'git http-backend answered nothing');
      raw.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      raw.end('The repository could not be read\n');
      return;
    }
    if (!reading || !answer) return endOf(raw);
    const held = answer.end();
    const pushed = commands?.request;
    if (code !== 0 || !pushed) return endOf(raw, held.bytes);
    try {
      await answerPush(
        { ...deps, stopping: stopping.signal, log: request.log },
        { caller, repository: found, request: pushed, held, raw },
      );
    } catch (error) {
      // The code is stored either way; the deploy can be started from the console.
      request.log.error({ err: error }, 'a push could not follow its deploy');
      endOf(raw, held.bytes);
    }
  }

  fastify.get('/:environment/:repository/info/refs', async (request, reply) => {
    const service = (request.query as { service?: string }).service;
    // Only the smart protocol: the dumb one would serve the repository's files one by one.
    if (service !== 'git-upload-pack' && service !== 'git-receive-pack')
      return refuse(reply, 403, 'Use git 1.6.6 or newer (smart HTTP)');
    return serve(request, reply, service, '/info/refs');
  });
  for (const service of SERVICES) {
    fastify.post(`/:environment/:repository/${service}`, async (request, reply) =>
      serve(request, reply, service, `/${service}`),
    );
  }
}
